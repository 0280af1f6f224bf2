# A query_id is a string or a whole number of any length, as the other lanes
# take it: one of 80 bytes was refused as "must be a string or a whole
# number" (it was written into 64 bytes to be checked).  One of another type
# is still refused, naming its line.
export EV_FIXED_TIME=2026-11-29T02:10:33.123Z	# the lanes' stamp (retrieved_at), pinned
exec 2>&1
ev-mv-load --index pages.mvi "$CASEDIR/records.jsonl" 2>/dev/null
long=qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqq
printf '{"query_id":"%s","vectors":[[0,0,1]]}\n{"query_id":[1],"vectors":[[0,0,1]]}\n' "$long" > q.jsonl
ev-search-mv --index pages.mvi -k 1 q.jsonl > hits.jsonl; echo "exit $?"
jq -c '[(.query_id | length), .rank, .id]' hits.jsonl
