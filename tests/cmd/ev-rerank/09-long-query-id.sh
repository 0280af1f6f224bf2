# A query_id of any length is a query_id, as ev-search-text, ev-fuse and
# ev-pack take it: ev-rerank and ev-expand read the hits of a 300-byte one
# (they refused it as "must be a string or an integer"), and tell two long
# ids that differ only in their last byte apart.
. "$CASEDIR/store.inc"
long=$(printf 'q%.0s' $(seq 299))
for end in A B A; do
	printf '{"query_id":"%s%s","id":"honey:_top:0","score":1,"query":"honey"}\n' "$long" "$end"
done >long.jsonl
ev-rerank --db kb.db long.jsonl >out.jsonl 2>err.txt
echo "exit $?"
sed "s/$long/LONG/" err.txt
jq -r '"\(.query_id | length) \(.query_id[299:]) \(.rank)"' out.jsonl
ev-expand --db kb.db --neighbours 0 --timeline 0 long.jsonl >out.jsonl 2>err.txt
echo "exit $?"
sed "s/$long/LONG/" err.txt
jq -r '"\(.query_id | length) \(.query_id[299:]) \(.rank)"' out.jsonl
