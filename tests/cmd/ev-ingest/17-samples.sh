# The bundled sample corpus: every document and how many chunks it gives;
# the full-text index checked by the sqlite3 shell with evkit's tokeniser loaded.
ev-ingest --db kb.db --quiet "$SAMPLES"
sqlite3 kb.db "SELECT replace(doc_id, '$SAMPLES/', ''), title, (SELECT count(*) FROM chunks c WHERE c.doc_id = d.doc_id) FROM documents d ORDER BY doc_id"
sqlite3 -cmd ".load $(dirname "$(command -v ev-ingest)")/evkit_fts5" kb.db "INSERT INTO chunks_fts(chunks_fts) VALUES('integrity-check')" && echo index consistent
