# --skip-invalid skips and counts bad records and stores the good ones.
cd "$TESTDATA/ingest"
ev-ingest --db "$OLDPWD/kb.db" --skip-invalid --quiet invalid.jsonl
echo "status $?" >&2
sqlite3 "$OLDPWD/kb.db" "SELECT doc_id FROM documents ORDER BY doc_id"
