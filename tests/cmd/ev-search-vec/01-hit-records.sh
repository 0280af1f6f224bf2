export EV_FIXED_TIME=2026-11-29T02:10:33.123Z	# the lanes' stamp (retrieved_at), pinned
exec 2>&1
. "$CASEDIR/../ev-embed-load/mkstore"; mkstore kb.db 6
ev-embed-load --db kb.db --index kb.faiss "$CASEDIR/../ev-embed-load/vectors.jsonl" 2>/dev/null
echo "{\"query_id\":\"q1\",\"query\":\"body 4\",\"vector\":[3,1,0,0],\"model\":\"m1\",\"user\":{\"keep\":true}}" | ev-search-vec --db kb.db --index kb.faiss -k 3
