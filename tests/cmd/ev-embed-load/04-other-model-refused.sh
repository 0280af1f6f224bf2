exec 2>&1
. "$CASEDIR/mkstore"; mkstore kb.db 6
ev-embed-load --db kb.db --index kb.faiss "$CASEDIR/vectors.jsonl" 2>/dev/null
echo "{\"id\":\"d1:s1:0\",\"vector\":[0,0,0,1],\"model\":\"m2\"}" | ev-embed-load --db kb.db --index kb.faiss
echo "exit $?"
