# --hits gathers the lanes' hits of routed queries into one stream, query by
# query in the order of the routed queries, each lane's hits kept only for the
# queries routed to it (!LANE: those not routed to it), lines copied as they
# are.  A lane that saw only some queries is fine; hits out of the queries'
# order, or of a query not among them, are bad input.
printf '%s\n' '{"query_id":1,"query":"a","lanes":["vector"]}' '{"query_id":2,"query":"b","lanes":["text","vector"]}' \
	'{"query_id":"c","query":"c","lanes":["text"]}' >routed.jsonl
printf '%s\n' '{"query_id":2,"id":"t2", "rank":1,"score":1.50,"lane":"text"}' '' \
	'{"query_id":"c","id":"t3","rank":1,"score":2,"lane":"text"}' >text.jsonl
printf '%s\n' '{"query_id":1,"id":"v1","rank":1,"score":0.9,"lane":"vector"}' \
	'{"query_id":2,"id":"v2","rank":1,"score":0.8,"lane":"vector"}' \
	'{"query_id":"c","id":"v3","rank":1,"score":0.7,"lane":"vector"}' >vector.jsonl
ev-route --hits text=text.jsonl --hits vector=vector.jsonl routed.jsonl
echo "-- the queries not routed to text:"
ev-route --hits '!text=vector.jsonl' routed.jsonl
echo "-- fused as one stream:"
ev-route --hits text=text.jsonl --hits vector=vector.jsonl routed.jsonl | ev-fuse |
	jq -c '[.query_id, .id, [.explain.lanes[].lane]]'
echo "-- errors:"
printf '%s\n' '{"query_id":"c","id":"t3","rank":1,"score":2}' '{"query_id":2,"id":"t2","rank":1,"score":1}' >late.jsonl
ev-route --hits text=late.jsonl routed.jsonl
echo "exit $?"
printf '%s\n' '{"query_id":9,"id":"t3","rank":1,"score":2}' >other.jsonl
ev-route --hits text=other.jsonl routed.jsonl
echo "exit $?"
echo '"a query not routed"' | ev-route --hits text=text.jsonl
echo "exit $?"
printf '%s\n' '{"query_id":2,"id":"t2","rank":1}' >bad.jsonl
ev-route --hits text=bad.jsonl routed.jsonl
echo "exit $?"
ev-route --hits text routed.jsonl
echo "exit $?"
ev-route --hits text=text.jsonl --lane text routed.jsonl
echo "exit $?"
