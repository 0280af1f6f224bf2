# A hit without an id or a numeric score is named by file and line (exit 2);
# --skip-invalid skips it; --db is needed; a store that is not there and an
# unknown feature are bad usage (a plan's key named as such, not as the
# flag's NAME=X); hits whose chunk the store lacks are ranked
# by their lanes alone, with a warning.
. "$CASEDIR/store.inc"
printf '%s\n' '{"query_id":1,"id":"honey:_top:0","score":1,"query":"honey"}' '{"query_id":1,"id":"x","score":"high"}' >bad.jsonl
ev-rerank --db kb.db bad.jsonl >/dev/null
echo "exit $?"
ev-rerank --db kb.db --skip-invalid bad.jsonl | jq -c '[.id, .rank]'
echo "exit $?"
ev-rerank bad.jsonl
echo "exit $?"
ev-rerank --db missing.db bad.jsonl
echo "exit $?"
ev-rerank --db kb.db --weight colour=1 bad.jsonl
echo "exit $?"
ev-rerank --db kb.db --weight title=x bad.jsonl
echo "exit $?"
printf 'rerank:\n  weights:\n    title: x\n' >bad-weight.yaml
ev-rerank --db kb.db --config bad-weight.yaml bad.jsonl
echo "exit $?"
printf 'rerank:\n  weights:\n    colour: 1\n' >bad-feature.yaml
ev-rerank --db kb.db --config bad-feature.yaml bad.jsonl
echo "exit $?"
printf '%s\n' '{"query_id":1,"id":"gone","score":2,"query":"honey"}' '{"query_id":1,"id":"honey:_top:0","score":1,"query":"honey"}' |
	ev-rerank --db kb.db | jq -c '[.id, .rank]'
echo "exit $?"
