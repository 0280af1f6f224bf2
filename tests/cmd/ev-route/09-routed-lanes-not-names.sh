# A record routed already keeps its "lanes", which the gate, --lane and --hits
# compare by name: a lane that is not a string (hand-edited, or written by
# another tool) is bad input, exit 2 naming the line -- it crashed the gate
# (a null name compared) and was passed over by --lane and --hits.
printf '%s\n' '{"query_id":1,"query":"a","lanes":["text","vector"],"routing":{"by":"default"}}' \
	'{"query_id":2,"query":"b","lanes":[1,"vector"],"routing":{"by":"default"}}' >routed.jsonl
printf '%s\n' '{"query_id":1,"id":"t1","rank":1,"score":2}' '{"query_id":2,"id":"t2","rank":1,"score":1}' >text.jsonl
ev-route --config "$CASEDIR/plan.yaml" --gate-hits text.jsonl routed.jsonl >gated.jsonl
echo "exit $?"
jq -c '[.query_id, .lanes]' gated.jsonl
ev-route --lane vector routed.jsonl >vector.jsonl
echo "exit $?"
jq -c '[.query_id, .lanes]' vector.jsonl
ev-route --hits vector=text.jsonl routed.jsonl >hits.jsonl
echo "exit $?"
jq -c '[.query_id, .id]' hits.jsonl
echo "-- a record with its lanes deleted is routed anew:"
sed -n 2p routed.jsonl | jq -c 'del(.lanes, .routing)' | ev-route --config "$CASEDIR/plan.yaml" |
	jq -c '[.query_id, .lanes]'
