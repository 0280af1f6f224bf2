# Two runs under one query_id whose hits name different queries (here the
# vector lane searched "panel flutter" as q1) would fuse into an answer to
# neither: exit 2 naming the hit and where the query_id's first text was
# read; --skip-invalid keeps the first text's hits.  Escapes that decode to
# the same text are the same query, and a hit without a query is not held
# to one.
cp "$CASEDIR/text.jsonl" .
sed 's/"query":"wing flutter"/"query":"panel flutter"/' "$CASEDIR/vector.jsonl" >vector.jsonl
ev-fuse --no-explain text.jsonl vector.jsonl >out
echo "exit $?"
jq -c '[.query_id, .query, .id]' out
ev-fuse --no-explain --skip-invalid text.jsonl vector.jsonl | jq -c '[.query_id, .query, .id]'
jq -c 'if .rank == 2 then del(.query) else . end' "$CASEDIR/vector.jsonl" |
	sed 's/"query":"wing flutter"/"query":"wing \\u0066lutter"/' >same.jsonl
grep -c 'u0066' same.jsonl
ev-fuse --no-explain text.jsonl same.jsonl >same.out
echo "exit $?"
jq -c '[.query_id, .id]' same.out
# The text a query is held to is that of its first hit fused: a hit
# skipped as bad (here its score) sets none.
printf '%s\n' '{"query_id":"q1","query":"typo text","id":"a","rank":1,"score":"bad","lane":"text"}' \
	'{"query_id":"q1","query":"wing flutter","id":"b","rank":2,"score":1,"lane":"text"}' >skipped.jsonl
ev-fuse --no-explain --skip-invalid skipped.jsonl | jq -c '[.id, .query]'
