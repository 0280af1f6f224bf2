# CRLF line ends keep byte offsets into the file; a byte order mark is
# dropped; a plain file with invalid UTF-8 is refused naming its line.
cp "$TESTDATA/ingest/crlf.txt" "$TESTDATA/ingest/bom.md" "$TESTDATA/ingest/badutf8.txt" .
ev-ingest --db kb.db crlf.txt bom.md
ev-ingest --db kb.db badutf8.txt
echo "status $?"
