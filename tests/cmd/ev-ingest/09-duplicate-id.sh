# The same document id twice in one run is bad input.
cd "$TESTDATA/ingest"
ev-ingest --db "$OLDPWD/kb.db" dup.jsonl
