exec 2>&1
. "$CASEDIR/../ev-embed-load/mkstore"; mkstore kb.db 6
ev-embed-load --db kb.db --index kb.faiss "$CASEDIR/../ev-embed-load/vectors.jsonl" 2>/dev/null
cp kb.faiss old.faiss
echo "{\"id\":\"d1:s1:0\",\"vector\":[0,1,0,0],\"model\":\"m1\"}" | ev-embed-load --db kb.db --index kb.faiss 2>/dev/null
echo "{\"vector\":[1,0,0,0]}" | ev-search-vec --db kb.db --index old.faiss; echo "exit $?"
echo "{\"vector\":[1,0,0,0]}" | ev-search-vec --db kb.db --index none.faiss; echo "exit $?"
