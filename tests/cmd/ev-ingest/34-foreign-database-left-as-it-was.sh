# An SQLite database of another program given as --db is refused (exit 2,
# with what to do instead) by every command that writes a store, and is
# left exactly as it was: nothing is written to a file before it is known
# to be an evkit store (not even the switch to WAL, byte 19 of its header).
sqlite3 notes.db "CREATE TABLE notes(id INTEGER PRIMARY KEY, body TEXT); INSERT INTO notes(body) VALUES('mine');"
sqlite3 keyvalue.db "CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT); INSERT INTO meta VALUES('owner', 'someone');"
sqlite3 othermeta.db "CREATE TABLE meta(name, setting); INSERT INTO meta VALUES('a', 'b');"
printf '# Title\n\nhello world\n' >x.md
echo '{"id":"x.md:0","vector":[1,0]}' >v.jsonl
before=$(cksum notes.db keyvalue.db othermeta.db)
for db in notes.db keyvalue.db othermeta.db; do
	ev-ingest --db $db x.md; echo "ev-ingest $?"
	ev-ingest --db $db --delete x.md; echo "ev-ingest --delete $?"
	ev-ingest --db $db --reindex; echo "ev-ingest --reindex $?"
	ev-embed --db $db --train; echo "ev-embed --train $?"
	ev-embed-load --db $db --index x.faiss v.jsonl; echo "ev-embed-load $?"
done 2>&1
[ "$(cksum notes.db keyvalue.db othermeta.db)" = "$before" ] && echo "the three files are unchanged"
ls
