# Each query needs an id of its own (the stages after merge hits by
# query_id): a second query of an id is bad input, naming its line and the
# first's; 7 and "7" are one id.  --skip-invalid passes over it, and a
# query skipped for another fault leaves its id free.
export EV_FIXED_TIME=2026-11-29T02:10:33.123Z	# the lanes' stamp (retrieved_at), pinned
exec 2>&1
ev-mv-load --index pages.mvi "$CASEDIR/records.jsonl" 2>/dev/null
printf '%s\n' '{"query_id":"q","vectors":[[0,0,1]]}' '{"query_id":"q","vectors":[[1,0,0]]}' >q.jsonl
ev-search-mv --index pages.mvi -k 1 q.jsonl >hits.jsonl; echo "exit $?"
jq -c '[.query_id, .id]' hits.jsonl
printf '%s\n' '{"query_id":7,"vectors":[[0,0,1]]}' '{"query_id":"7","vectors":[[1,0,0]]}' \
	'{"query_id":"r","vectors":[[1,0]]}' '{"query_id":"r","vectors":[[1,0,0]]}' >q2.jsonl
ev-search-mv --index pages.mvi -k 1 --skip-invalid q2.jsonl >hits.jsonl; echo "exit $?"
jq -c '[.query_id, .id]' hits.jsonl
