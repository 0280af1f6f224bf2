# The features use a query's first 64 distinct words: a longer query is
# cut, and standard error says how many were (it was silent).  Here the
# one word the chunk holds, "honey", is the query's 71st: its coverage is
# 0; the same word alone covers the chunk.
. "$CASEDIR/store.inc"
words=$(i=1; while [ $i -le 70 ]; do printf 'word%d ' $i; i=$((i + 1)); done)
printf '%s\n' "{\"query_id\":1,\"id\":\"honey:_top:0\",\"score\":1,\"query\":\"${words}honey\"}" \
	'{"query_id":2,"id":"honey:_top:0","score":1,"query":"honey"}' >hits.jsonl
ev-rerank --db kb.db hits.jsonl | jq -c '[.query_id, .explain.rerank.features.coverage]'
echo "exit $?"
