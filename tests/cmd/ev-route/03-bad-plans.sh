# A routing section of the wrong shape is bad usage, naming the file and key.
echo '"q"' >q.jsonl
for section in 'routing: [text]' 'routing: {default: []}' 'routing: {default: [te xt]}' \
	'routing: {rules: [{lanes: [text]}]}' 'routing: {rules: [{lanes: [text], pattern: "("}]}' \
	'routing: {field: tab}' 'routing: {gate: {lane: vector, on: text, below: 2}}' \
	'routing: {rules: [{lanes: [text], cues: ["  "]}]}' 'routing: {gate: {lane: text, on: text, below: 0.5}}' \
	'routing: {gate: {lane: vector, on: text, below: 0.5, mode: always}}'; do
	echo "$section" >plan.yaml
	ev-route --config plan.yaml q.jsonl
	echo "exit $?"
done
echo '{"query_id":1,"query":"q","tab":3}' | ev-route --config "$CASEDIR/plan.yaml"
echo "exit $?"
# --known: a plan routing to a lane the pipeline cannot run is refused, naming the key
cp "$CASEDIR/plan.yaml" routes.yaml
ev-route --config routes.yaml --known text,vector,structured q.jsonl
echo "exit $?"
echo 'routing: {gate: {lane: expand, on: text, below: 0.5}}' >plan.yaml
ev-route --config plan.yaml --known text,vector q.jsonl
echo "exit $?"
ev-route --default text,visual --known text,vector q.jsonl
echo "exit $?"
ev-route --config plan.yaml --known text,vector,expand q.jsonl
echo "exit $?"
