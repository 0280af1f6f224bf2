# Lanes concatenated (q1 q2 q1 q2) are not grouped by query: exit 2 naming
# the first line of the query that came back; pass the lanes as two files instead.
cat "$CASEDIR/text.jsonl" "$CASEDIR/vector.jsonl" | ev-fuse --no-explain >out
status=$?
jq -c "[.query_id,.id]" out
exit $status
