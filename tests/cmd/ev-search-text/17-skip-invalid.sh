# --skip-invalid: bad query records are named, skipped and counted; the
# others are answered; exit 0.  Without it the first bad record stops (2).
exec 2>&1
. "$CASEDIR/mkstore"; mkstore kb.db
printf '%s\n' '"wing"' '{"query": 3}' '{"query":' '{"query":"wing","filters":{"colour":"red"}}' '"heat"' > q.jsonl
ev-search-text --db kb.db -k 1 --skip-invalid --log log.jsonl q.jsonl > hits.jsonl; echo "exit $?"
jq -c '[.query_id, .id]' hits.jsonl
jq -c .counts log.jsonl
ev-search-text --db kb.db -k 1 q.jsonl > hits.jsonl; echo "exit $?"
jq -c '[.query_id, .id]' hits.jsonl
