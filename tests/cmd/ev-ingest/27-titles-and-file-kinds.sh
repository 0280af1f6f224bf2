# A record with a title and no text gets one chunk, its title; one with
# neither, and an empty file, are stored and named on stderr (no search can
# find them).  Directories take README-like names and .rst as text and say
# what they skip (counted; --verbose names each); --format applies to named
# files.
# The title-only chunk's text is the title, and it has no title of its own,
# so its words are indexed once (not in both title and text columns, which
# ranked such chunks above documents with a body).
printf '%s\n' '{"id":"t1","text":"","title":"Quarterly report"}' '{"id":"e1","text":" "}' |
    ev-ingest --db kb.db | jq -c '[.id, .title, .text, .offset_start, .offset_end]'
echo '"quarterly"' | ev-search-text --db kb.db | jq -r .id
sqlite3 -cmd ".load $(dirname "$(command -v ev-ingest)")/evkit_fts5" kb.db "SELECT (SELECT count(*) FROM chunks_fts WHERE chunks_fts MATCH 'title:quarterly'),
	(SELECT count(*) FROM chunks_fts WHERE chunks_fts MATCH 'text:quarterly')"
mkdir docs
echo "Read me first." >docs/README
printf 'Title\n=====\n\nSome reStructuredText.\n' >docs/guide.rst
: >docs/empty.md
printf '\211PNG\r\n' >docs/logo.png
printf '\177ELF\0\0' >docs/tool
echo "a,b" >docs/table.csv
ev-ingest --db kb.db docs | jq -r .id
ev-ingest --db kb.db --verbose --all docs 2>&1 >/dev/null
# A named file: by --format, else by its name (no extension: text).
echo '{"id":"x","text":"looks like JSON"}' >export.dat
echo "Plain words." >NOTES
ev-ingest --db kb.db --format text export.dat NOTES | jq -c '[.id, .text]'
ev-ingest --db kb.db --format jsonl NOTES 2>&1; echo "exit $?"
cp export.dat export
ev-ingest --db kb.db --format jsonl export | jq -c '[.id, .text]'
