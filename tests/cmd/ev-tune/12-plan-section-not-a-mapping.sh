# A --plan whose section is a single value ("rerank: 3", "diversity: [1]",
# "lanes: {text: 3}") is refused, exit 2 naming the file, line and section,
# as ev-pack and --config refuse it: it is not warned about as an unknown
# key and then copied into the plan ev-tune writes, or tuned from the
# defaults in its place.
exec 2>&1
. "$TESTDATA/../cmd/ev-rerank/store.inc"
printf '%s\n' '{"query_id":"q1","query":"varroa mites"}' '{"query_id":"q2","query":"varroa colony"}' |
	ev-search-text --db kb.db -k 10 --feedback 0 | ev-rerank --db kb.db >hits.jsonl
printf 'q1 long 1\nq2 long 1\n' >qrels.txt
for plan in 'rerank: 3' 'diversity: [1]' 'lanes:\n  text: 3'; do
	printf "$plan\n" >plan.yaml
	ev-tune --rerank --qrels qrels.txt --folds 2 --plan plan.yaml hits.jsonl >tuned.yaml
	echo "status $?"
done
ev-tune --db kb.db --qrels qrels.txt --plan plan.yaml; echo "status $?"
