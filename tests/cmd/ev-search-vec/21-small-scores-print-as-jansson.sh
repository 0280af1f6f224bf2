# A score near zero prints as Jansson prints a real (and as ev-search-text
# and ev-fuse print theirs): no '+' and no leading zero in the exponent,
# 4.999999874e-5, not printf's 4.999999874e-05.
exec 2>&1
. "$CASEDIR/../ev-embed-load/mkstore"; mkstore kb.db 6
ev-embed-load --db kb.db --index kb.faiss "$CASEDIR/../ev-embed-load/vectors.jsonl" 2>/dev/null
echo '{"query_id":"q1","vector":[0,0.00005,0,1]}' |
	ev-search-vec --db kb.db --index kb.faiss -k 2 --no-snippet | grep -o '"id":"[^"]*"\|"score":[^,]*'
