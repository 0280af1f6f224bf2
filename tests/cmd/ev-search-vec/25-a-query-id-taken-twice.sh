# Each query needs an id of its own (the stages after merge hits by
# query_id): a second query of an id is bad input, naming its line and the
# first's; 7 and "7" are one id, and a query without one takes its line
# number.  --skip-invalid passes over it, and a query skipped for another
# fault leaves its id free.
export EV_FIXED_TIME=2026-11-29T02:10:33.123Z	# the lanes' stamp (retrieved_at), pinned
exec 2>&1
. "$CASEDIR/../ev-embed-load/mkstore"; mkstore kb.db 6
ev-embed-load --db kb.db --index kb.faiss "$CASEDIR/../ev-embed-load/vectors.jsonl" 2>/dev/null
printf '%s\n' '{"query_id":"q","vector":[1,0,0,0]}' '{"query_id":"q","vector":[0,1,0,0]}' >q.jsonl
ev-search-vec --db kb.db --index kb.faiss -k 1 --no-snippet q.jsonl >hits.jsonl; echo "exit $?"
jq -c '[.query_id, .id]' hits.jsonl
printf '%s\n' '{"query_id":7,"vector":[1,0,0,0]}' '{"query_id":"7","vector":[0,1,0,0]}' \
	'{"vector":[0,0,1,0]}' '{"query_id":3,"vector":[0,1,0,0]}' \
	'{"query_id":"r","vector":[1,0]}' '{"query_id":"r","vector":[0,0,0,1]}' >q2.jsonl
ev-search-vec --db kb.db --index kb.faiss -k 1 --no-snippet --skip-invalid q2.jsonl >hits.jsonl
echo "exit $?"
jq -c '[.query_id, .id]' hits.jsonl
