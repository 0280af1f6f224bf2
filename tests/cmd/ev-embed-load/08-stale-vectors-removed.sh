exec 2>&1
. "$CASEDIR/mkstore"; mkstore kb.db 6
ev-embed-load --db kb.db --index kb.faiss "$CASEDIR/vectors.jsonl" 2>/dev/null
sqlite3 kb.db "INSERT INTO chunk_tombstones VALUES (1); UPDATE chunks SET content_hash = 'new' WHERE rowid = 2; DELETE FROM chunks WHERE rowid = 3"
ev-embed-load --db kb.db --index kb.faiss < /dev/null
sqlite3 kb.db "SELECT group_concat(rowid) FROM vec_vectors; SELECT count(*) FROM chunk_tombstones"
