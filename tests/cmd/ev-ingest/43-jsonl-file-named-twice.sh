# A JSON Lines file named twice in one run (x.jsonl and ./x.jsonl, a link to
# it, or a glob that also matches a file named on its own) is read once,
# with a warning, as a Markdown or text file is.  (Its records met
# themselves: "duplicate document id", exit 2, nothing stored.)  Another
# file that holds the same id is still an error.
exec 2>&1
mkdir exports
printf '%s\n' '{"id":"a","text":"first"}' '{"id":"b","text":"second"}' > exports/x.jsonl
ln -s x.jsonl exports/link.jsonl
ev-ingest --db kb.db --quiet exports/*.jsonl ./exports/x.jsonl; echo "exit $?"
sqlite3 kb.db "SELECT doc_id, source FROM documents ORDER BY doc_id"
cp exports/x.jsonl copy.jsonl
ev-ingest --db kb.db --quiet exports/x.jsonl copy.jsonl; echo "exit $?"
