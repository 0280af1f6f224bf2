# A file name that is not UTF-8 (Latin-1 'é', byte 0xE9, from an old
# archive): a JSON Lines file's records have their own ids, so the file is
# ingested, its name kept for messages and as its source (--prune); it was
# "out of memory", exit 1.  A Markdown, text or HTML file's id is its name:
# it is refused naming the file and saying to rename it, exit 2, the store
# left as it was.
exec 2>&1
bad=$(printf 'caf\351')
printf '%s\n' '{"id":"a","text":"first"}' '{"id":"b","text":"second"}' > "$bad.jsonl"
ev-ingest --db kb.db --quiet "$bad.jsonl"; echo "exit $?"
sqlite3 kb.db "SELECT doc_id, hex(source) FROM documents ORDER BY doc_id"
printf '%s\n' '{"id":"a","text":"first"}' > "$bad.jsonl"
ev-ingest --db kb.db --quiet --prune "$bad.jsonl"; echo "exit $?"
sqlite3 kb.db "SELECT doc_id FROM documents ORDER BY doc_id"
printf '%s\n' '{"id":"a","text":"first"}' '{"id":"a","text":"again"}' > "$bad.jsonl"
{ ev-ingest --db kb.db --quiet "$bad.jsonl" 2>&1; echo "exit $?"; } | tr '\351' '?'
printf '# Title\n\nSome text.\n' > "$bad.md"
sqlite3 kb.db .dump > before
{ ev-ingest --db kb.db --quiet "$bad.md" 2>&1; echo "exit $?"; } | tr '\351' '?'
sqlite3 kb.db .dump | cmp -s before - && echo "store unchanged"
printf '<h1>Title</h1><p>Some text.</p>\n' > "$bad.html"
{ ev-ingest --db kb.db --quiet "$bad.html" 2>&1; echo "exit $?"; } | tr '\351' '?'
sqlite3 kb.db .dump | cmp -s before - && echo "store unchanged"
