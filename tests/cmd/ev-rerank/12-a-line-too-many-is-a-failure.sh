# A command that answers a candidate with two lines would have its second
# line read as the next candidate's score, and every later score shifted
# (candidate 2 got 99 here).  A line that no candidate asked for is a
# failure of the command: the query keeps its incoming order, each hit
# says why, and so does standard error, once.
. "$CASEDIR/store.inc"
printf '%s\n' '{"query_id":1,"query":"honey","id":"honey:_top:0","rank":1,"score":2}' \
	'{"query_id":1,"query":"honey","id":"apart:_top:0","rank":2,"score":1}' >hits.jsonl
ev-rerank --db kb.db --batch 1 --command 'while read -r l; do printf "1\n99\n"; done' hits.jsonl |
	jq -c '[.id, .rank, .score, .warnings]'
echo "exit $?"
