# A chunk one lane lists twice among one query's hits would be written
# twice, once in the new order and once below it.  It is bad input (exit 2)
# naming both places, as ev-fuse refuses an id twice in one lane;
# --skip-invalid keeps the first.  The same id in another query is no
# repeat, nor is it from another lane (each lane's hit is reranked, as
# ev-pack merges them).  A hit whose query text is not that of its query's
# earlier hits is bad input too: the hits are of two queries.
. "$CASEDIR/store.inc"
printf '%s\n' '{"query_id":1,"query":"honey","id":"honey:_top:0","rank":1,"score":2}' \
	'{"query_id":1,"query":"honey","id":"apart:_top:0","rank":2,"score":1}' \
	'{"query_id":1,"query":"honey","id":"honey:_top:0","rank":3,"score":0.5}' \
	'{"query_id":2,"query":"honey","id":"honey:_top:0","rank":1,"score":2}' >hits.jsonl
ev-rerank --db kb.db hits.jsonl
echo "exit $?"
ev-rerank --db kb.db --skip-invalid hits.jsonl | jq -c '[.query_id, .id, .rank]'
echo "exit $?"
printf '%s\n' '{"query_id":1,"query":"honey","id":"honey:_top:0","lane":"text","rank":1,"score":2}' \
	'{"query_id":1,"query":"honey","id":"honey:_top:0","lane":"vector","rank":1,"score":0.5}' \
	'{"query_id":1,"query":"honey","id":"honey:_top:0","lane":"text","rank":2,"score":1}' >lanes.jsonl
ev-rerank --db kb.db --skip-invalid lanes.jsonl | jq -c '[.id, .lane, .rank]'
printf '%s\n' '{"query_id":1,"query":"honey","id":"honey:_top:0","rank":1,"score":2}' \
	'{"query_id":1,"id":"titled:_top:0","rank":2,"score":1}' \
	'{"query_id":1,"query":"varroa mites","id":"apart:_top:0","rank":3,"score":1}' >texts.jsonl
ev-rerank --db kb.db texts.jsonl
echo "exit $?"
