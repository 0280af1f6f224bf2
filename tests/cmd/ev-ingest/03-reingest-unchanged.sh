# Re-ingesting the same input prints nothing and changes nothing; --all prints
# every chunk again; --quiet prints none.
cp "$TESTDATA/ingest/guide.md" .
ev-ingest --db kb.db guide.md "$TESTDATA/ingest/docs.jsonl" | wc -l
sqlite3 kb.db "SELECT rowid, id FROM chunks" > before
ev-ingest --db kb.db guide.md "$TESTDATA/ingest/docs.jsonl" | wc -l
ev-ingest --db kb.db --all guide.md "$TESTDATA/ingest/docs.jsonl" | wc -l
ev-ingest --db kb.db --quiet --all 2>&1 | head -1
sqlite3 kb.db "SELECT rowid, id FROM chunks" | cmp - before && echo same rowids
