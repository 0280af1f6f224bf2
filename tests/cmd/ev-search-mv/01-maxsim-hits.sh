# MaxSim by hand: q1's vectors (1,0,0) and (0,1,0) find 1 in each of p1
# (2 in all), p2 and p3 (2 from its (2,0,0) alone): equal scores rank in id
# order.  q2's (0,0,1) finds only p2's (0,0,1).  Hits carry the query's
# fields but its vectors, the record's fields, the lane and its evidence.
export EV_FIXED_TIME=2026-11-29T02:10:33.123Z	# the lanes' stamp (retrieved_at), pinned
exec 2>&1
ev-mv-load --index pages.mvi "$CASEDIR/records.jsonl" 2>/dev/null
printf '%s\n' '{"query_id":"q1","query":"site plan","vectors":[[1,0,0],[0,1,0]],"model":"colpali-test"}' \
  '{"query_id":"q2","vectors":[[0,0,1]]}' > q.jsonl
ev-search-mv --index pages.mvi -k 3 q.jsonl; echo "exit $?"
ev-search-mv --index pages.mvi -k 3 --exact q.jsonl | jq -c '[.query_id, .rank, .id, .score]'
