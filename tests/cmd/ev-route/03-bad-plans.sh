# A routing section of the wrong shape is bad usage, naming the file and key.
echo '"q"' >q.jsonl
for section in 'routing: [text]' 'routing: {default: []}' 'routing: {default: [te xt]}' \
	'routing: {rules: [{lanes: [text]}]}' 'routing: {rules: [{lanes: [text], pattern: "("}]}' \
	'routing: {field: tab}' 'routing: {gate: {lane: vector, on: text, below: 2}}' \
	'routing: {rules: [{lanes: [text], cues: ["  "]}]}'; do
	echo "$section" >plan.yaml
	ev-route --config plan.yaml q.jsonl
	echo "exit $?"
done
echo '{"query_id":1,"query":"q","tab":3}' | ev-route --config "$CASEDIR/plan.yaml"
echo "exit $?"
