# A hit without an id or a numeric score is named by file and line (exit 2);
# --skip-invalid skips it; a store that is not there is bad usage.
. "$CASEDIR/store.inc"
printf '%s\n' '{"query_id":1,"id":"news-1:_top:0","score":1}' '{"query_id":1,"id":"x","score":"high"}' >bad.jsonl
ev-expand --db kb.db bad.jsonl >/dev/null
echo "exit $?"
ev-expand --db kb.db --skip-invalid --neighbours 0 --timeline 0 bad.jsonl | jq -c '[.id, .rank]'
ev-expand --db missing.db bad.jsonl
echo "exit $?"
ev-expand --db kb.db --decay 1 bad.jsonl
echo "exit $?"
