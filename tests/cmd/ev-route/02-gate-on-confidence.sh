# The vector lane is gated on the text lane's confidence, (s1 - s2) / |s1|:
# q1's answer is 0.5 ahead of the second (confident, vector taken out), q2's
# 0.1 (vector kept), q3 has a single hit (confidence 1), q4 no hits (0).
printf '%s\n' '{"query_id":"q1","query":"a"}' '{"query_id":"q2","query":"b"}' \
	'{"query_id":"q3","query":"c"}' '{"query_id":"q4","query":"d"}' >q.jsonl
printf '%s\n' '{"query_id":"q1","id":"x","rank":2,"score":1}' '{"query_id":"q1","id":"y","rank":1,"score":2}' \
	'{"query_id":"q2","id":"x","rank":1,"score":10}' '{"query_id":"q2","id":"y","rank":2,"score":9}' \
	'{"query_id":"q2","id":"z","rank":3,"score":1}' '{"query_id":"q3","id":"x","rank":1,"score":-4}' >text.jsonl
ev-route --config "$CASEDIR/plan.yaml" --gate-hits text.jsonl q.jsonl | jq -c '[.query_id, .lanes, .routing]'
echo "-- to the vector lane:"
ev-route --config "$CASEDIR/plan.yaml" --gate-hits text.jsonl --lane vector q.jsonl | jq -c .query_id
