# A lane's name is 1 to 31 lowercase letters, digits, '_' or '-', in a plan
# and in every option that names a lane: a plan routing to 'TEXT' wrote it
# into each query's lanes, where no lane of that name runs; --lane TEXT
# wrote no query, --known TEXT refused the plan's 'text', --hits TEXT=FILE
# gathered nothing.  Each is bad usage now (exit 2).
echo '"q"' >q.jsonl
printf 'routing:\n  default: [TEXT, vector]\n' >plan.yaml
ev-route --config plan.yaml q.jsonl
echo "exit $?"
printf 'routing:\n  default: [text]\n  gate: {lane: Vector, on: text, below: 0.1}\n' >plan.yaml
ev-route --config plan.yaml q.jsonl
echo "exit $?"
for o in "--known TEXT,vector" "--lane TEXT" "--hits TEXT=hits.jsonl" "--default Text"; do
	ev-route $o q.jsonl 2>&1 | head -1
done
