# A path that is not UTF-8 (a directory named in Latin-1, byte 0xE9) to a
# file whose id ev-ingest makes UTF-8 (the path relative to its base, the
# current directory) was refused by ev-extract, and so by ev-ingest, which
# runs it: "file name is not valid UTF-8".  ev-extract now gives such a path
# the id ev-ingest gives it from the current directory; a path whose id is
# not UTF-8 either is refused as before, exit 2.
exec 2>&1
bad=$(printf 'caf\351')
mkdir "$bad" && cd "$bad" || exit 1
printf '<html><head><title>A page</title></head><body><p>Its text.</p></body></html>\n' > a.html
ev-extract "$PWD/a.html" "../$bad/a.html" 2>err.txt > out.jsonl; echo "exit $?"
tr '\351' '?' < err.txt
jq -c '[.id, .source_uri]' out.jsonl
ev-ingest --db kb.db --quiet "$PWD/a.html"; echo "exit $?"
sqlite3 kb.db "SELECT doc_id, source_uri FROM documents"
cd ..
{ ev-extract "$bad/a.html" 2>&1; echo "exit $?"; } | tr '\351' '?'
