# --skip-invalid: bad records are reported, skipped and counted; the good
# ones are scored; exit 0.
printf '%s\n' '{"query_id":"a","query":"flow","answer":"Flow.","citations":["flow"]}' \
    '{"query_id":"b","query":"flow","answer":"Flow.","citations":"flow"}' \
    '{"query_id":"c","query":"flow' \
    '{"query_id":"d","query":"flow","answer":"Flow.","citations":["flow"]}' |
    ev-score --skip-invalid >out 2>err
echo "status $?"
jq -c '{query_id, overall}' out
cat err
