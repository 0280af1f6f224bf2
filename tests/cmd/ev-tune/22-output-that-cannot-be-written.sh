# An -o FILE that cannot be written (a directory, a missing directory) is
# bad usage said before the search (exit 2, "nothing was run"): the search
# may take hours, and it was lost at its end, when the plan was written.
. "$TESTDATA/../cmd/ev-rerank/store.inc"
printf '%s\n' '{"query_id":"q1","query":"varroa mites"}' '{"query_id":"q2","query":"varroa colony"}' |
	ev-search-text --db kb.db -k 3 --feedback 0 | ev-rerank --db kb.db >hits.jsonl
printf '%s\n' 'q1 long 1' 'q2 long 1' >qrels.txt
mkdir plans
for out in plans missing/plan.yaml; do
	ev-tune --rerank --qrels qrels.txt --folds 2 -o $out hits.jsonl
	echo "exit $?"
	ev-tune --db kb.db --qrels qrels.txt -o $out q.jsonl
	echo "exit $?"
done
ev-tune --rerank --qrels qrels.txt --folds 2 -o plans/plan.yaml hits.jsonl 2>/dev/null
echo "exit $?"
grep -c weights plans/plan.yaml
