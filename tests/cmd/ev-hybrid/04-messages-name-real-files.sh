# Messages never name ev-hybrid's scratch files: a bad query line is named in
# the user's file (or stdin); every query has its pack, an empty one when
# nothing was found; the demo's hint names the plan.
. "$CASEDIR/store.inc"
printf '"flutter"\n{"query": 3}\n' >"my queries.jsonl"
"$hybrid" --db db --index idx -f "my queries.jsonl" 2>&1; echo "status $?"
"$hybrid" --db db --index idx -f - <"my queries.jsonl" 2>&1; echo "status $?"
printf '{"query_id": "a", "query": "flutter"}\n{"query_id": "b", "query": "qqqq zzzz"}\n' >q2.jsonl
"$hybrid" --db db --index idx -f q2.jsonl | jq -c '[.query_id, (.evidences | length), .warnings]'
grep -o 'scripts/ev-hybrid --db %s --index %s --plan [^ ]*' "$top/scripts/demo.sh"
