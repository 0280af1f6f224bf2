# An HTML file named as a.html from inside a directory named in Latin-1
# (byte 0xE9), with the store's base elsewhere: its id is its absolute path,
# not UTF-8, though ev-extract's (its name) is.  ev-ingest said "out of
# memory", exit 1; it now refuses it as it refuses a Markdown file of such an
# id, naming the file and saying to rename it, exit 2, the store left as it
# was; --skip-invalid skips it.
exec 2>&1
bad=$(printf 'caf\351')
mkdir base "$bad" && cd "$bad" || exit 1
printf '<html><head><title>A page</title></head><body><p>Its text.</p></body></html>\n' > a.html
printf '%s\n' '{"id":"a","text":"first"}' > b.jsonl
ev-ingest --db ../kb.db --base ../base --quiet b.jsonl; echo "exit $?"
sqlite3 ../kb.db .dump > before
ev-ingest --db ../kb.db --quiet a.html; echo "exit $?"
sqlite3 ../kb.db .dump | cmp -s before - && echo "store unchanged"
ev-ingest --db ../kb.db --quiet --skip-invalid a.html; echo "exit $?"
sqlite3 ../kb.db "SELECT count(*) FROM documents"
