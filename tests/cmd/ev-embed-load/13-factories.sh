exec 2>&1
. "$CASEDIR/mkstore"; mkstore kb.db 6
ev-embed-load --db kb.db --index kb.faiss --factory HNSW8 "$CASEDIR/vectors.jsonl"
echo "{\"id\":\"d1:s1:0\",\"vector\":[0,0,0,1],\"model\":\"m1\"}" | ev-embed-load --db kb.db --index kb.faiss
ev-embed-load --db kb.db --index kb.faiss --factory Flat < /dev/null
ev-embed-load --db kb.db --index kb.faiss --factory "Nonsense99" < /dev/null; echo "exit $?"
