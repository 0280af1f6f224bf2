# -o - writes the plan to standard output, as without -o: it made a file
# named '-' in the current directory.
. "$TESTDATA/../cmd/ev-rerank/store.inc"
printf '%s\n' '{"query_id":"q1","query":"varroa mites"}' '{"query_id":"q2","query":"varroa colony"}' |
	ev-search-text --db kb.db -k 3 --feedback 0 | ev-rerank --db kb.db >hits.jsonl
printf '%s\n' 'q1 long 1' 'q2 long 1' >qrels.txt
ev-tune --rerank --qrels qrels.txt --folds 2 -o - hits.jsonl 2>/dev/null >dash.yaml
echo "exit $?"
ev-tune --rerank --qrels qrels.txt --folds 2 hits.jsonl 2>/dev/null | cmp - dash.yaml && echo same
ls
