# A plan whose section is a single value ("diversity: 3", "output: [1]",
# "lanes: {text: 3}") is refused, exit 2 naming the file, line and section,
# as --config refuses it: it is not taken for an unknown key and passed over
# with the defaults in its place.  The same plan as --config, for comparison.
printf '%s\n' '{"query_id":"q","query":"x","id":"a","doc_id":"A","rank":1,"score":1,"lane":"text"}' >hits.jsonl
for plan in 'diversity: 3' 'output: [1]' 'k: 3\nlanes:\n  text: 3' 'fusion: true'; do
	printf "$plan\n" >plan.yaml
	ev-pack --plan plan.yaml hits.jsonl 2>&1 >/dev/null; echo "status $?"
done
printf 'diversity: 3\n' >plan.yaml
ev-pack --config plan.yaml hits.jsonl 2>&1 >/dev/null; echo "status $?"
# An empty section (nothing but comments under it) is as if absent.
printf 'diversity:\n#  by_document: 2\n' >plan.yaml
ev-pack --plan plan.yaml hits.jsonl 2>/dev/null | jq -c '[.query_id, (.evidences | length)]'
