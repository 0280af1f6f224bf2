# A query the lanes refuse (a query_id of another type, a query that is not
# a string, a line that is neither a string nor an object) failed on every
# shard: the lane's message named the scratch copy search.XXXXXX/queries.jsonl,
# GNU parallel printed the job, and the run exited 1 ("counting statistics
# failed") or with jq's own status, 5.  search refuses it now before any
# shard is reached, naming the queries' file and line, exit 2.
export EV_FIXED_TIME=2026-11-29T02:10:33.123Z	# the lanes' stamp (retrieved_at), pinned
shard=$CASEDIR/../../../scripts/ev-shard
"$shard" split -n 2 "$CASEDIR"/../ev-search-text/bees.jsonl a 2>/dev/null || exit 1
"$shard" index a 2>/dev/null || exit 1
for bad in '{"query_id":[1],"query":"honey"}' '{"query_id":"b","query":5}' '{"query_id":"c"}' \
	'{"query_id":2.5,"query":"honey"}' '5'; do
	printf '%s\n' '"honey bees"' "$bad" >q.jsonl
	"$shard" search -k 1 a q.jsonl >hits.jsonl 2>err.txt
	echo "exit $?: $(cat err.txt)"
	wc -l <hits.jsonl
done
ls a | grep -c '^search\.' || :
printf '%s\n' '"honey bees"' '{"query_id":"b","query":"mead"}' >q.jsonl
"$shard" search -k 1 a q.jsonl | jq -c '[.query_id, .rank]'
