# A command that fails never loses a query: it is stopped, exit status 0,
# the hits keep their incoming order and each says why in "warnings"; one
# message on standard error.  Too slow (killed at the timeout), a bad
# answer, an answer for another candidate, a command that is not there.
. "$CASEDIR/store.inc"
printf '%s\n' '{"query_id":"q1","query":"varroa mites"}' '{"query_id":"q2","query":"honey"}' |
	ev-search-text --db kb.db -k 3 --feedback 0 >text.jsonl
for cmd in 'sleep 10' "jq --unbuffered -c '\"high\"'" "jq --unbuffered -c '{id: \"other\", score: 1}'" 'no-such-reranker 2>/dev/null'; do
	echo "-- $cmd"
	start=$(date +%s)
	ev-rerank --db kb.db --timeout 0.5 --log run.log --command "$cmd" text.jsonl >out.jsonl
	echo "exit $? within 5 s: $(($(date +%s) - start < 5))"
	jq -c '[.query_id, .rank, .id, (.warnings | length)]' out.jsonl
	head -1 out.jsonl | jq -r '.warnings[0]'
	tail -1 run.log | jq -c '[.counts.queries, .counts.degraded_queries, .exit]'
done
