# Each kind of bad record is named with its line; the first stops the run
# (exit 2) and nothing is written: not even the store is created.
cd "$TESTDATA/ingest"
ev-ingest --db "$OLDPWD/kb.db" invalid.jsonl
echo "status $?" >&2
ls "$OLDPWD"
