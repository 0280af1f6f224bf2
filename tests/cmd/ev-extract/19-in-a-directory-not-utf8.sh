# A file named from inside a directory whose name is not UTF-8 (Latin-1
# 'é', byte 0xE9): its id, its name, is UTF-8, but the file's resolved path
# (which tells a file named twice) is not, and ev-extract said "out of
# memory", exit 1 -- and so did ev-ingest, which runs it.  The file is
# extracted, once however it is named.
exec 2>&1
bad=$(printf 'caf\351')
mkdir "$bad" && cd "$bad" || exit 1
printf '<html><head><title>A page</title></head><body><p>Its text.</p></body></html>\n' > a.html
ev-extract a.html ./a.html > out.jsonl; echo "exit $?"
jq -c '[.id, .source_uri, .title]' out.jsonl
ev-ingest --db kb.db --quiet a.html; echo "exit $?"
sqlite3 kb.db "SELECT doc_id FROM documents"
