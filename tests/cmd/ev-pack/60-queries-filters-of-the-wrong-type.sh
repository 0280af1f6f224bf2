# A query record of --queries whose filters is not an object (null is
# absent) is bad input (exit 2, FILE:LINE), as its routing is, and as a
# hit's filters is: it was passed over, and the pack's
# explain.filters_applied showed none.
exec 2>&1
printf '%s\n' '{"query_id":"q","query":"mites","filters":"lang = en"}' >q.jsonl
printf '%s\n' '{"query_id":"q","query":"mites","id":"d:_top:0","doc_id":"d","rank":1,"score":1,"lane":"text"}' >hits.jsonl
ev-pack --queries q.jsonl hits.jsonl
echo "exit $?"
echo "-- an object, or null:"
printf '%s\n' '{"query_id":"q","query":"mites","filters":{"language":"en"}}' >q.jsonl
ev-pack --queries q.jsonl hits.jsonl | jq -c .explain.filters_applied
printf '%s\n' '{"query_id":"q","query":"mites","filters":null}' >q.jsonl
ev-pack --queries q.jsonl hits.jsonl | jq -c .explain.filters_applied
