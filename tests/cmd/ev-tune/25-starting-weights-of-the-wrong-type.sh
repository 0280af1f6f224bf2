# --rerank judges the fitted weights against those the hits were reranked
# with (rerank.config.weights); a rerank, config or weights of the wrong
# type, or a weight that is not a number, is bad input (exit 2, FILE:LINE):
# the shipped weights were taken instead, unsaid.
exec 2>&1
. "$TESTDATA/../cmd/ev-rerank/store.inc"
printf '%s\n' '{"query_id":"q1","query":"varroa mites"}' '{"query_id":"q2","query":"varroa colony"}' |
	ev-search-text --db kb.db -k 3 --feedback 0 | ev-rerank --db kb.db >hits.jsonl
printf '%s\n' 'q1 long 1' 'q2 long 1' >qrels.txt
for f in '.rerank = "x"' '.rerank.config = []' '.rerank.config.weights = 1' \
    '.rerank.config.weights.bm25 = "0.5"' '.rerank.config.weights.title = null'; do
	jq -c "$f" hits.jsonl >bad.jsonl
	ev-tune --rerank --qrels qrels.txt --folds 2 bad.jsonl >/dev/null
	echo "exit $?"
done
