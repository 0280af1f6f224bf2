# A query whose vectors are all zeros has no direction: every record's
# MaxSim is 0, and the lane wrote the first k records as hits of score 0,
# which ev-fuse ranked among real ones.  It has no hits now, and standard
# error says so, as ev-search-vec does of an all-zero query vector.  One
# zero vector among others is a query like any other.
export EV_FIXED_TIME=2026-11-29T02:10:33.123Z	# the lanes' stamp (retrieved_at), pinned
ev-mv-load --index pages.mvi "$CASEDIR/records.jsonl" 2>/dev/null
printf '%s\n' '{"query_id":"zero","vectors":[[0,0,0],[0,-0,0]]}' \
	'{"query_id":"one","vectors":[[0,0,0],[0,0,1]]}' >q.jsonl
ev-search-mv --index pages.mvi -k 3 q.jsonl | jq -c '[.query_id, .rank, .id, .score]'
ev-search-mv --index pages.mvi -k 3 --exact q.jsonl 2>&1 >/dev/null
echo "exit $?"
