# A query record's fields are copied into its hits, but never one that is
# a hit's own, even where the chunk has none: a query's "text" or "page"
# would otherwise read, downstream, as the chunk's (ev-pack takes a hit's
# "text" for its chunk's).  Other fields ("user") are copied as before.
export EV_FIXED_TIME=2026-11-29T02:10:33.123Z	# the lanes' stamp (retrieved_at), pinned
exec 2>&1
. "$CASEDIR/../ev-embed-load/mkstore"; mkstore kb.db 6
ev-embed-load --db kb.db --index kb.faiss "$CASEDIR/../ev-embed-load/vectors.jsonl" 2>/dev/null
echo '{"query_id":"q1","vector":[1,0,0,0],"model":"m1","text":"NOT THE CHUNK","page":7,"user":{"keep":true}}' |
	ev-search-vec --db kb.db --index kb.faiss -k 1 --no-snippet | jq -c '{id, text, page, user}'
