# --rerank: a reranked hit whose explain.rerank.features lacks a feature is
# bad input naming its file and line (exit 2): taken for 0, it would bend
# the fit without a word.  A feature that is not a number is refused too.
. "$TESTDATA/../cmd/ev-rerank/store.inc"
printf '%s\n' '{"query_id":"q1","query":"varroa mites"}' '{"query_id":"q2","query":"varroa colony"}' |
	ev-search-text --db kb.db -k 3 --feedback 0 | ev-rerank --db kb.db >hits.jsonl
printf '%s\n' 'q1 long 1' 'q2 long 1' >qrels.txt
jq -c 'if .query_id == "q2" and .rank == 2 then del(.explain.rerank.features.coverage) else . end' \
	hits.jsonl >lacking.jsonl
ev-tune --rerank --qrels qrels.txt --folds 2 lacking.jsonl
echo "exit $?"
jq -c 'if .rank == 1 then .explain.rerank.features.title = "high" else . end' hits.jsonl >text.jsonl
ev-tune --rerank --qrels qrels.txt --folds 2 text.jsonl
echo "exit $?"
