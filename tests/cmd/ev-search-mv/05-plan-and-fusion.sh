# The options' keys in a retrieval plan, under lanes.visual; the lane's hits
# fuse with another lane's like any (ev-fuse names its signals visual_*).
exec 2>&1
ev-mv-load --index pages.mvi "$CASEDIR/records.jsonl" 2>/dev/null
printf 'lanes:\n  visual:\n    k: 2\n    candidates: 5\n    token_k: 3\n  text:\n    k: 9\n' > plan.yaml
echo '{"query_id":"q","vectors":[[0,0,1],[1,0,0]]}' > q.jsonl
ev-search-mv --index pages.mvi --config plan.yaml q.jsonl > visual.jsonl; echo "exit $?"
jq -c '[.rank, .id, .score]' visual.jsonl
echo '{"query_id":"q","id":"p3","doc_id":"d2","rank":1,"score":7.5,"lane":"text"}' > text.jsonl
ev-fuse --method rrf visual.jsonl text.jsonl | jq -c '[.id, .signals.visual_rank, .signals.fts_rank, (.evidence | map(.lane))]'
