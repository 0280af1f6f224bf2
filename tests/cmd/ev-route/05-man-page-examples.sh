# The EXAMPLES of ev-route(1) run as written from the top of a checkout: the
# routed pipeline stage by stage over a store of samples/.  Each query's lanes
# and gate decision, which lanes each query's fused hits came from, and the
# packs, one a query.
ln -s "$SAMPLES" samples
. "$CASEDIR/../examples.sh"
examples ev-route.1 >examples.sh
sh -e examples.sh >log 2>err
echo "status $?, $(grep -c . examples.sh) command lines"
cat log
jq -r '[.query_id, (.explain.lanes | map(select(.found).lane) | sort | join("+"))] | @tsv' fused.jsonl |
	sort -u | awk '{ a[$1] = a[$1] " " $2 } END { for (q in a) print q ":" a[q] }' | sort
echo "$(wc -l <packs.jsonl) packs of $(grep -c . samples/queries.jsonl) queries"
