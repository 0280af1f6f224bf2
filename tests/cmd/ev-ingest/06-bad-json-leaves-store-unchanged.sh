# A truncated record on line 3: exit 2 naming the line, and the store exactly
# as it was, including the first two (good) records of the same file.
cp "$TESTDATA/ingest/docs.jsonl" .
ev-ingest --db kb.db --quiet docs.jsonl
sqlite3 kb.db .dump > before
ev-ingest --db kb.db "$TESTDATA/ingest/truncated.jsonl" 2>err
echo "status $?"
sed "s|$TESTDATA/||" err
sqlite3 kb.db .dump | cmp - before && echo store unchanged
