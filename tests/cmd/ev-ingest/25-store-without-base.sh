# A store made before ids were relative to a base holds file documents under
# the paths as given (here three copies of docs/a.md and two of b.md, made as
# an older evkit did).  The next ingest records the base, renames them to
# their ids relative to it and deletes the second copies (their chunks
# tombstoned), keeping the rowids of the chunks it keeps; nothing is printed
# again for them.
mkdir docs
printf '# Alpha\n\nAlpha notes.\n' >docs/a.md
echo "Beta notes." >docs/b.txt
for p in docs/a.md ./docs/a.md "$PWD/docs/a.md" ./docs/b.txt "$PWD/docs/b.txt"; do
	jq -n -c --arg p "$p" --rawfile t "$p" \
	    '{id: $p, text: $t, source_uri: $p, source_type: (if ($p | endswith(".md")) then "markdown" else "text" end)}'
done >legacy.jsonl
ev-ingest --db kb.db --quiet --source docs/ legacy.jsonl
sqlite3 kb.db "DELETE FROM meta WHERE key = 'ingest.base'"
sqlite3 kb.db "SELECT count(*) FROM documents; SELECT count(*) FROM chunks"
sqlite3 kb.db "SELECT rowid FROM chunks WHERE doc_id = './docs/b.txt'" >rowid.before
ev-ingest --db kb.db docs 2>err | jq -r .id
sed "s|$(pwd -P)|PWD|g" err
sqlite3 kb.db "SELECT doc_id, source, source_uri FROM documents ORDER BY doc_id"
sqlite3 kb.db "SELECT count(*) FROM chunks; SELECT count(*) FROM chunk_tombstones"
sqlite3 kb.db "SELECT rowid FROM chunks WHERE doc_id = 'docs/b.txt'" | cmp -s - rowid.before && echo "rowid kept"
ev-ingest --db kb.db docs | wc -l
