# --rerank fits the built-in reranker's weights to the hits ev-rerank wrote:
# here the judgements favour one chunk, which the incoming order puts
# last or low for each query, so the fit finds weights that raise it; the
# figure is cross-validated against the starting weights (those the hits
# carry), and the weights are written as a plan's rerank section, or into
# the plan given.  Hits without features, and no --qrels, are refused.
. "$TESTDATA/../cmd/ev-rerank/store.inc"
printf '%s\n' '{"query_id":"q1","query":"varroa mites"}' '{"query_id":"q2","query":"varroa colony"}' \
	'{"query_id":"q3","query":"mites treat"}' '{"query_id":"q4","query":"colony varroa mites"}' |
	ev-search-text --db kb.db -k 10 --feedback 0 | ev-rerank --db kb.db --weight title=0 --weight coverage=0 >hits.jsonl
for q in q1 q2 q3 q4; do echo "$q long 1"; done >qrels.txt
ev-tune --rerank --qrels qrels.txt --folds 2 -o tuned.yaml hits.jsonl 2>err.txt
echo "exit $?"
grep -Ev ': 0(\.0)?$' tuned.yaml
sed 's/[0-9]* weight vectors/N weight vectors/' err.txt
printf 'version: "0.1"\nk: 5\nrerank:\n  top_n: 50\n' >plan.yaml
ev-tune --rerank --qrels qrels.txt --folds 2 --plan plan.yaml hits.jsonl 2>/dev/null | grep -v '^#' | grep -Ev ': 0(\.0)?$'
# the plan written is one ev-rerank takes: the judged chunk first in every query
ev-rerank --db kb.db --config tuned.yaml hits.jsonl | jq -r 'select(.rank == 1) | .doc_id' | sort | uniq -c
ev-search-text --db kb.db -k 3 --feedback 0 <<'Q' >plain.jsonl
{"query_id":"q1","query":"varroa"}
Q
ev-tune --rerank --qrels qrels.txt plain.jsonl
echo "exit $?"
ev-tune --rerank hits.jsonl
echo "exit $?"
