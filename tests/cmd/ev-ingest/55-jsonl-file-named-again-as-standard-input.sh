# A JSON Lines file named once by its name and once as '-', with that file
# as standard input, is one file named twice: read once, with a warning, as
# x.jsonl and ./x.jsonl are.  ('-' had no file key: its records met
# themselves, "duplicate document id", exit 2, nothing stored.)
exec 2>&1
printf '%s\n' '{"id":"a","text":"first"}' '{"id":"b","text":"second"}' > x.jsonl
ev-ingest --db kb.db --quiet - x.jsonl < x.jsonl; echo "exit $?"
sqlite3 kb.db "SELECT doc_id, source FROM documents ORDER BY doc_id"
ev-ingest --db kb2.db --quiet x.jsonl - < x.jsonl; echo "exit $?"
sqlite3 kb2.db "SELECT doc_id, source FROM documents ORDER BY doc_id"
# standard input that is another file, or a pipe, is read as before
cp x.jsonl copy.jsonl
ev-ingest --db kb3.db --quiet - x.jsonl < copy.jsonl; echo "exit $?"
printf '%s\n' '{"id":"c","text":"third"}' | ev-ingest --db kb3.db --quiet - x.jsonl; echo "exit $?"
sqlite3 kb3.db "SELECT doc_id, source FROM documents ORDER BY doc_id"
