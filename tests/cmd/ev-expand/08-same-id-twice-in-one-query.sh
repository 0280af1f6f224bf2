# A chunk one lane lists twice among a query's hits is bad input (exit 2)
# naming both places; --skip-invalid keeps the first.  So is a hit whose
# query text is not that of its query's earlier hits.
. "$CASEDIR/store.inc"
printf '%s\n' '{"query_id":1,"id":"news-1:_top:0","score":2}' '{"query_id":1,"id":"news-2:_top:0","score":1}' \
	'{"query_id":1,"id":"news-1:_top:0","score":0.5}' >hits.jsonl
ev-expand --db kb.db --neighbours 0 --timeline 0 hits.jsonl
echo "exit $?"
ev-expand --db kb.db --neighbours 0 --timeline 0 --skip-invalid hits.jsonl | jq -c '[.id, .rank]'
echo "exit $?"
printf '%s\n' '{"query_id":1,"query":"mites","id":"news-1:_top:0","score":2}' \
	'{"query_id":1,"query":"hives","id":"news-2:_top:0","score":1}' >texts.jsonl
ev-expand --db kb.db --neighbours 0 --timeline 0 texts.jsonl
echo "exit $?"
