# --size 80 splits the table: every later part carries the header rows, and
# its offsets cover its own rows.  --overlap 0 for exact boundaries.
cp "$TESTDATA/ingest/guide.md" .
ev-ingest --db kb.db --size 80 --overlap 0 guide.md | grep '"guide.md:turbine-guide/limits'
