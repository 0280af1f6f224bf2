# A gate over both lanes weighs each lane's own confidence (margin10 by
# default): the lane that clears its threshold by the most is kept alone,
# the lanes are merged when neither clears; a high-stakes query keeps both,
# by the default mark (stakes: high) or the plan's own; a gate on one lane's
# confidence never skips a lane of a high-stakes query either.
exec 2>&1
cat >plan.yaml <<'YAML'
routing:
  default: [text, vector]
  gate:
    lanes: [text, vector]
    below: {text: 0.5, vector: 0.3}
    mode: merge
YAML
printf '%s\n' '{"query_id":"a","query":"x"}' '{"query_id":"b","query":"y"}' \
    '{"query_id":"c","query":"z","stakes":"high"}' '{"query_id":"d","query":"w"}' >q.jsonl
hit() { printf '{"query_id":"%s","id":"%s","rank":%s,"score":%s,"lane":"%s"}\n' "$@"; }
{
	i=1; while [ $i -le 10 ]; do hit a t$i $i $((20 - i)) text; i=$((i + 1)); done
	hit b t1 1 10 text; hit b t2 2 9.9 text
	hit c t1 1 10 text; hit c t2 2 1 text
	hit d t1 1 10 text; hit d t2 2 9.9 text
} >text.jsonl
{
	hit a v1 1 0.9 vector; hit a v2 2 0.8 vector
	hit b v1 1 0.9 vector; hit b v2 2 0.1 vector
	hit c v1 1 0.9 vector; hit c v2 2 0.1 vector
	hit d v1 1 0.5 vector; hit d v2 2 0.45 vector
} >vector.jsonl
ev-route --config plan.yaml --gate-hits text=text.jsonl --gate-hits vector=vector.jsonl q.jsonl |
	jq -c '[.query_id, .lanes, .routing.gate.confidence, .routing.gate.decision, .routing.gate.kept]'
# the gathered hits follow the decision: query b's text hits are not merged
ev-route --config plan.yaml --gate-hits text=text.jsonl --gate-hits vector=vector.jsonl q.jsonl |
	ev-route --hits text=text.jsonl --hits vector=vector.jsonl | jq -r 'select(.query_id == "b") | .id' | tr '\n' ' '
echo
# the plan's own mark of a high-stakes query, and the gate on the text lane's confidence
cat >old.yaml <<'YAML'
routing:
  default: [text, vector]
  gate: {lane: vector, on: text, below: 0.3}
  high_stakes: {field: task, values: [appeal]}
YAML
printf '%s\n' '{"query_id":"c","query":"z","task":"appeal"}' '{"query_id":"c","query":"z","stakes":"high"}' |
	ev-route --config old.yaml --gate-hits text.jsonl | jq -c '[.lanes, .routing.gate.decision]'
# a lane the gate does not weigh
ev-route --config plan.yaml --gate-hits expand=text.jsonl q.jsonl
echo "status $?"
