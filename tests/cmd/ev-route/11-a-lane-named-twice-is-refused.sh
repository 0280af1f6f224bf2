# A list of lanes that names a lane twice (routing.default, a rule's or a
# value's lanes, --default) is bad usage, as routing.gate.lanes already
# was: it was written into every query's lanes twice, ["text","text"].  A
# lane's name is 1 to 31 bytes, as every other stage's (ev-fuse refuses a
# lane of 32).
exec 2>&1
echo '"a map of x"' > q.jsonl
for plan in 'routing: {default: [text, text]}' \
    'routing: {rules: [{cues: [map], lanes: [vector, text, vector]}]}' \
    'routing: {field: tab, values: {maps: [text, text]}}' \
    'routing: {default: [aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa]}'; do
	printf '%s\n' "$plan" > plan.yaml
	ev-route --config plan.yaml q.jsonl; echo "exit $?"
done
ev-route --default text,vector,text q.jsonl; echo "exit $?"
printf '%s\n' 'routing: {rules: [{cues: [map], lanes: [vector, text]}]}' > plan.yaml
ev-route --config plan.yaml q.jsonl | jq -c .lanes
