# --db '' names no file: SQLite opened a temporary database for it, so the
# documents were "stored" (exit 0, their chunks printed) where nothing could
# find them again.  Exit 2, nothing printed.
printf '%s\n' '{"id": "a", "text": "kept nowhere"}' > a.jsonl
ev-ingest --db '' a.jsonl; echo "exit $?"
ev-ingest --db '' --delete a; echo "exit $?"
ls
