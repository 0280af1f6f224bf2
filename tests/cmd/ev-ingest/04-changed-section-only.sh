# Editing one section replaces the document but prints only the changed
# chunk; the others keep their rowids; the old rowid is tombstoned for the
# vector index; the text index follows.
cp "$TESTDATA/ingest/guide.md" .
ev-ingest --db kb.db --quiet guide.md
sqlite3 kb.db "SELECT rowid, id FROM chunks ORDER BY rowid" > before
sed 's/Use the installer./Run the installer as administrator./' guide.md > g && mv g guide.md
ev-ingest --db kb.db guide.md | cut -c1-60
sqlite3 kb.db "SELECT rowid, id FROM chunks ORDER BY rowid" | diff before - | sed 's/^/diff: /'
sqlite3 kb.db "SELECT rowid FROM chunk_tombstones"
sqlite3 -cmd ".load $(dirname "$(command -v ev-ingest)")/evkit_fts5" kb.db "SELECT id FROM chunks_fts JOIN chunks ON chunks.rowid = chunks_fts.rowid WHERE chunks_fts MATCH 'administrator'"
sqlite3 -cmd ".load $(dirname "$(command -v ev-ingest)")/evkit_fts5" kb.db "SELECT count(*) FROM chunks_fts WHERE chunks_fts MATCH 'installer AND use'"
