# A query a failed command leaves in its incoming order keeps its incoming
# scores, but one above the score before it is lowered to it: scores never
# rise with rank.  Each hit's explain.rerank says it was not reranked and
# gives its incoming rank and score (the third hit, without a rank, came
# third).
. "$CASEDIR/store.inc"
printf '%s\n' '{"query_id":1,"query":"honey","id":"honey:_top:0","rank":1,"score":1}' \
	'{"query_id":1,"query":"honey","id":"apart:_top:0","rank":2,"score":5}' \
	'{"query_id":1,"query":"honey","id":"titled:_top:0","score":0.25}' >hits.jsonl
ev-rerank --db kb.db --command 'exit 0' hits.jsonl 2>/dev/null |
	jq -c '[.id, .rank, .score, .explain.rerank]'
echo "exit $?"
