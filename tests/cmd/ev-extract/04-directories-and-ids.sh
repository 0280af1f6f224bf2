# Directories are read recursively in byte order of names; hidden entries and
# other kinds of file are skipped; ids are the paths as given, normalised
# (no "./" or "//"), as ev-ingest names files.  A file named twice (or also
# found in a directory named) is written once, since ev-ingest refuses an id
# twice in one run.
mkdir -p docs/b docs/a .git
python3 "$CASEDIR/mkpdf.py" outline docs/b/Z.PDF
printf '<title>a</title><p>a</p>' > docs/a/one.html
printf '<p>b</p>' > docs/B.htm
printf '<p>hidden</p>' > docs/.hidden.html
printf 'text' > docs/notes.txt
ln -s a docs/link-to-a
ev-extract ./docs// > out.jsonl
echo "status $?"
jq -c "[.id, .source_uri, .title, .metadata.format]" out.jsonl
ev-extract .//docs/./a/one.html docs/b/../B.htm | jq -c '[.id, .source_uri]'
ev-extract docs/B.htm ./docs | jq -r .id
