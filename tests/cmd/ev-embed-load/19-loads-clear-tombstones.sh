# A load clears chunk_tombstones, whatever else it has to do: regression
# test for tombstones of chunks that never had a vector surviving loads that
# found nothing to change (and loads into a store with no vectors at all).
exec 2>&1
. "$CASEDIR/mkstore"; mkstore kb.db 6
sqlite3 kb.db "INSERT INTO chunk_tombstones VALUES (97)"
ev-embed-load --db kb.db --index kb.faiss < /dev/null 2>/dev/null
echo "no vectors yet: $(sqlite3 kb.db 'SELECT count(*) FROM chunk_tombstones') tombstones"
ev-embed-load --db kb.db --index kb.faiss "$CASEDIR/vectors.jsonl" 2>/dev/null
sqlite3 kb.db "INSERT INTO chunk_tombstones VALUES (98), (99)"
ev-embed-load --db kb.db --index kb.faiss < /dev/null 2>/dev/null
ev-embed-load --db kb.db --index kb.faiss < /dev/null 2>/dev/null
echo "two empty loads: $(sqlite3 kb.db 'SELECT count(*) FROM chunk_tombstones') tombstones"
sqlite3 kb.db "INSERT INTO chunk_tombstones VALUES (3)"
ev-embed-load --db kb.db --index kb.faiss < /dev/null
echo "a tombstoned vector: $(sqlite3 kb.db 'SELECT count(*) FROM chunk_tombstones') tombstones, $(sqlite3 kb.db 'SELECT count(*) FROM vec_vectors') vectors"
