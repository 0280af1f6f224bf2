# A query's hits are consecutive records: a query that comes back after its
# hits were reranked and written (lanes concatenated, q1 q2 q1) is bad input,
# exit 2 naming the line, after the queries before it; it is not reranked a
# second time apart, with ranks 1, 2 ... again.  --skip-invalid skips its
# records, and those of a query that comes back after the skipped ones.
. "$CASEDIR/store.inc"
printf '%s\n' '{"query_id":"q1","id":"honey:_top:0","score":2,"query":"honey"}' \
	'{"query_id":"q2","id":"honey:_top:0","score":1,"query":"bees"}' \
	'{"query_id":"q1","id":"gone","score":1,"query":"honey"}' \
	'{"query_id":"q2","id":"gone","score":1,"query":"bees"}' >back.jsonl
ev-rerank --db kb.db back.jsonl 2>&1 >out.jsonl
echo "exit $?"
jq -c '[.query_id, .id, .rank]' out.jsonl
ev-rerank --db kb.db --skip-invalid back.jsonl 2>&1 | grep -v '^{'
ev-rerank --db kb.db --skip-invalid back.jsonl 2>/dev/null | jq -c '[.query_id, .id, .rank]'
