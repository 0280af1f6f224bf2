exec 2>&1
. "$CASEDIR/../ev-embed-load/mkstore"; mkstore kb.db 6
ev-embed-load --db kb.db --index kb.faiss "$CASEDIR/../ev-embed-load/vectors.jsonl" 2>/dev/null
ev-embed-load --db kb.db --index h.faiss --factory HNSW8 < /dev/null 2>/dev/null
echo "{\"vector\":[1,0,0,0]}" | ev-search-vec --db kb.db --index h.faiss --ef-search 100 -k 2 --no-snippet | jq -c "[.id, .score]"
echo "{\"vector\":[1,0,0,0]}" | ev-search-vec --db kb.db --index h.faiss --nprobe 4 -k 1 --no-snippet | jq -c "[.id, .score]"
