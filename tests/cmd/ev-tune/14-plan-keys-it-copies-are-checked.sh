# A --plan key that ev-tune does not search but copies into the plan it
# writes ("k: x", "rerank.window: 1", "output.format: xml") is checked as
# its stage checks it: exit 2 naming the file, line and key, not a plan
# written with exit 0 that ev-pack or ev-rerank then refuses.
exec 2>&1
. "$TESTDATA/../cmd/ev-rerank/store.inc"
printf '%s\n' '{"query_id":"q1","query":"varroa mites"}' '{"query_id":"q2","query":"varroa colony"}' >queries.jsonl
ev-search-text --db kb.db -k 10 --feedback 0 queries.jsonl | ev-rerank --db kb.db >hits.jsonl
printf 'q1 long 1\nq2 long 1\n' >qrels.txt
for plan in 'k: x' 'rerank:\n  window: 1' 'output:\n  format: xml'; do
	printf "$plan\n" >plan.yaml
	ev-tune --rerank --qrels qrels.txt --folds 2 --plan plan.yaml hits.jsonl >tuned.yaml
	echo "status $?"
done
ev-tune --db kb.db --qrels qrels.txt --folds 2 --plan plan.yaml queries.jsonl >tuned.yaml
echo "status $?"
