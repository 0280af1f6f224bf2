# The vector lane is gated on the text lane's confidence, (s1 - s2) / |s1|:
# q1's answer is 0.5 ahead of the second (confident: the vector lane is
# skipped), q2's 0.1 (it runs), q3 has a single hit (confidence 1), q4 no hits
# (0); q5 goes to the visual lane by a cue, not to the vector lane.  Each
# query's routing.gate says what was decided and why.
printf '%s\n' '{"query_id":"q1","query":"a"}' '{"query_id":"q2","query":"b"}' \
	'{"query_id":"q3","query":"c"}' '{"query_id":"q4","query":"d"}' '{"query_id":"q5","query":"a map"}' >q.jsonl
printf '%s\n' '{"query_id":"q1","id":"x","rank":2,"score":1}' '{"query_id":"q1","id":"y","rank":1,"score":2}' \
	'{"query_id":"q2","id":"x","rank":1,"score":10}' '{"query_id":"q2","id":"y","rank":2,"score":9}' \
	'{"query_id":"q2","id":"z","rank":3,"score":1}' '{"query_id":"q3","id":"x","rank":1,"score":-4}' \
	'{"query_id":"q5","id":"x","rank":1,"score":3}' '{"query_id":"q5","id":"z","rank":2,"score":3}' >text.jsonl
ev-route --config "$CASEDIR/plan.yaml" --gate-hits text.jsonl q.jsonl | jq -c '[.query_id, .lanes, .routing]'
echo "-- to the vector lane:"
ev-route --config "$CASEDIR/plan.yaml" --gate-hits text.jsonl --lane vector q.jsonl | jq -c .query_id
echo "-- mode merge: the lane is dropped from the merge where the answer is confident"
sed 's/below: 0.3/below: 0.3\n    mode: merge/' "$CASEDIR/plan.yaml" >merge.yaml
ev-route --config merge.yaml --gate-hits text.jsonl q.jsonl | jq -c '[.query_id, .lanes, .routing.gate.decision]'
echo "-- without --gate-hits, nothing is gated:"
ev-route --config "$CASEDIR/plan.yaml" q.jsonl | jq -c '[.query_id, .lanes, .routing]' | head -1
echo "-- routed records are kept as they are, and gated once:"
ev-route --config "$CASEDIR/plan.yaml" q.jsonl >routed.jsonl
ev-route --config "$CASEDIR/plan.yaml" --gate-hits text.jsonl routed.jsonl >gated.jsonl
ev-route --config "$CASEDIR/plan.yaml" --gate-hits text.jsonl q.jsonl | cmp - gated.jsonl && echo same
ev-route --config "$CASEDIR/plan.yaml" --gate-hits text.jsonl gated.jsonl | cmp - gated.jsonl && echo same
ev-route --lane vector gated.jsonl | jq -c .query_id
