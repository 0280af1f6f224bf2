# A hit without id: exit 2 naming the line; the packs before it are written.
L=$CASEDIR/../ev-fuse
{ grep q1 "$L/text.jsonl"; echo "{\"query_id\":\"q2\",\"score\":1}"; } >hits.jsonl
ev-pack hits.jsonl >out
status=$?
jq -c "[.evidences[].id]" out
exit $status
