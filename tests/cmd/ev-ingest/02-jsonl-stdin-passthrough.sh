# JSON Lines on stdin: unknown fields ("site") pass through into each chunk
# record; metadata and unknown fields are stored for filters; a document
# without a title takes its first level-1 heading's.
ev-ingest --db kb.db < "$TESTDATA/ingest/docs.jsonl"
sqlite3 kb.db "SELECT doc_id, source, title, language, published_date, metadata FROM documents ORDER BY doc_id"
