# Bad request fields, in hits and in --queries, and absurd new options: exit 2
# with a message naming the line; the packs before it are written.
h='"id":"a:0:0","score":1,"source_uri":"a"'
for bad in '"query_index":-1' '"query_index":"1"' '"query_index":1.5' '"request_id":5' \
    '"warnings":"x"' '"warnings":["x",1]' '"rerank":"on"' '"routing":["text"]'; do
	printf '{"query_id":"q",%s,%s}\n' "$h" "$bad" | ev-pack >/dev/null
	echo "status $?"
done 2>&1
echo "two queries of a request with one query_index:"
printf '%s\n' '{"query_id":"q1","request_id":"R","query_index":0,"id":"a","score":1}' \
    '{"query_id":"q2","request_id":"R","query_index":0,"id":"b","score":1}' | ev-pack 2>&1 >/dev/null
echo "status $?"
echo "a request coming back, a query in two requests:"
printf '%s\n' '{"query_id":"q1","request_id":"R","id":"a","score":1}' \
    '{"query_id":"q2","id":"b","score":1}' '{"query_id":"q3","request_id":"R","id":"c","score":1}' |
    ev-pack 2>&1 >out
echo "status $?"
jq -c .query_id out
printf '%s\n' '{"query_id":"q1","request_id":"R","id":"a","score":1}' \
    '{"query_id":"q1","request_id":"S","id":"c","score":1}' | ev-pack 2>&1 >/dev/null
echo "status $?"
echo "--queries with bad request fields:"
for bad in '"request_id":[]' '"query_index":-3' '"routing":"rule"'; do
	printf '{"query_id":"q","query":"x",%s}\n' "$bad" >q.jsonl
	ev-pack --queries q.jsonl </dev/null
	echo "status $?"
done 2>&1
printf '%s\n' '{"query_id":"a","query":"x","request_id":"R","query_index":1}' \
    '{"query_id":"b","query":"y","request_id":"R","query_index":1}' >q.jsonl
ev-pack --queries q.jsonl </dev/null 2>&1; echo "status $?"
printf '%s\n' '{"query_id":7,"query":"x","request_id":"R","query_index":1}' \
    '{"query_id":8,"query":"y","request_id":"R","query_index":1}' >q.jsonl
ev-pack --queries q.jsonl </dev/null 2>&1; echo "status $?"
echo "options:"
for args in "--mmr-lambda 1.5" "--mmr-lambda nan" "--mmr-depth 0" "--group-by doc" "--db db" \
    "--index idx" "--db no-such.db --index idx --mmr-lambda 0.5"; do
	ev-pack $args </dev/null
	echo "status $?"
done 2>&1
printf "group_by: document\n" >bad.yaml
ev-pack --plan bad.yaml </dev/null 2>&1; echo "status $?"
printf "diversity:\n  mmr_lambda: -1\n" >bad.yaml
ev-pack --plan bad.yaml </dev/null 2>&1; echo "status $?"
