exec 2>&1
. "$CASEDIR/../ev-embed-load/mkstore"; mkstore kb.db 6
ev-embed-load --db kb.db --index kb.faiss "$CASEDIR/../ev-embed-load/vectors.jsonl" 2>/dev/null
printf "%s\n" "{\"query_id\":1,\"vector\":[1,0,0,0]}" "{\"query_id\":2,\"vector\":[0,0,0,0]}" | ev-search-vec --db kb.db --index kb.faiss --min-score 0.5 --no-snippet | jq -c "[.query_id, .id, .score]"
