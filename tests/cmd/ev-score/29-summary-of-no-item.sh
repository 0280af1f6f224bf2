# The summary of no item (an empty input, or every record skipped) has no
# mean nor percentile: each is null in the JSON line (it was 0, which reads
# as a score of zero on every axis), "-" in the table.  A gate's count is 0.
: >empty.jsonl
ev-score --summary=json --min-faithfulness 0.5 empty.jsonl 2>/dev/null
echo "exit $?"
ev-score --summary --max-redundancy 0.4 empty.jsonl 2>&1
echo "exit $?"
echo '{"query":"x","answer":3}' | ev-score --summary=json --skip-invalid 2>/dev/null | jq -c '.summary.overall'
