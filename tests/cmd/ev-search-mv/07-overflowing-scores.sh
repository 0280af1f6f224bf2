# Regression: a query of finite numbers whose MaxSim overflows a float
# (3e38 times a record's 2) made json_real() fail on the infinite score,
# reported as "out of memory", exit 1.  It is a bad query: exit 2 naming its
# line, the queries before it answered; --skip-invalid skips it.
exec 2>&1
ev-mv-load --index pages.mvi "$CASEDIR/records.jsonl" 2>/dev/null
printf '%s\n' '{"query_id":"ok","vectors":[[1,0,0]]}' '{"query_id":"big","vectors":[[3e38,0,0]]}' \
    '{"query_id":"ok2","vectors":[[0,0,1]]}' > q.jsonl
ev-search-mv --index pages.mvi -k 1 q.jsonl > hits.jsonl; echo "exit $?"
jq -c '[.query_id, .id, .score]' hits.jsonl
ev-search-mv --index pages.mvi -k 1 --exact q.jsonl > hits.jsonl; echo "exit $?"
jq -c '[.query_id, .id, .score]' hits.jsonl
ev-search-mv --index pages.mvi -k 1 --skip-invalid q.jsonl > hits.jsonl; echo "exit $?"
jq -c '[.query_id, .id, .score]' hits.jsonl
