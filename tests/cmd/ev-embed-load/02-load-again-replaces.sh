exec 2>&1
. "$CASEDIR/mkstore"; mkstore kb.db 6
ev-embed-load --db kb.db --index kb.faiss "$CASEDIR/vectors.jsonl" 2>/dev/null
echo "{\"id\":\"d1:s1:0\",\"vector\":[0,0,0,2],\"model\":\"m1\"}" | ev-embed-load --db kb.db --index kb.faiss
ev-embed-load --db kb.db --index kb.faiss "$CASEDIR/vectors.jsonl"
sqlite3 kb.db "SELECT count(*) FROM vec_vectors"
