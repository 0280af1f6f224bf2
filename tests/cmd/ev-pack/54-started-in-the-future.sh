# --started later than now cannot be when the request began: bad usage
# (exit 2) that says what to give, not a pack with took_ms 0 and the
# future as when its hits were retrieved.  Now itself is taken.
. "$CASEDIR/../ev-hybrid/store.inc"
echo '{"query_id":"q1","query":"flutter speed"}' >q.jsonl
ev-search-text --db db q.jsonl >text.jsonl
hour_on=$(( $(date +%s) + 3600 ))
{ ev-pack --started "${hour_on}000" text.jsonl; echo "status $?"; } 2>&1 | sed "s/${hour_on}000/HOUR_ON/"
ev-pack --started "$(date +%s%3N)" text.jsonl | jq -r '.stats.took_ms_scope'
