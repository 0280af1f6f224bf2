# --weight moves hits by a feature: the title match first with title 1; the
# ordered pairs (words side by side) with ordered 1; --top-n 2
# reranks the best two only (incoming -1 swaps them) and the rest follow in
# their order, below them,
# marked reranked false; -k keeps the first k; the plan's rerank section
# sets the same.
. "$CASEDIR/store.inc"
echo '{"query_id":"q1","query":"varroa mites"}' | ev-search-text --db kb.db -k 10 --feedback 0 >text.jsonl
echo "incoming:"; jq -c '[.rank, .id]' text.jsonl
echo "incoming 0, title 1:"
ev-rerank --db kb.db --weight incoming=0 --weight title=1 --weight coverage=0 text.jsonl |
	jq -c '[.rank, .id, .explain.rerank.contributions]'
echo "incoming 0, ordered 1:"
ev-rerank --db kb.db --weight incoming=0 --weight ordered=1 --weight coverage=0 --weight title=0 text.jsonl |
	jq -c '[.rank, .id, (.explain.rerank.features.ordered * 1e4 | round)]'
echo "top-n 2, incoming -1 (the best two change places):"
ev-rerank --db kb.db --top-n 2 --weight incoming=-1 --weight title=0 --weight coverage=0 text.jsonl |
	jq -c '[.rank, .id, .explain.rerank.reranked, .explain.rerank.incoming_rank]'
ev-rerank --db kb.db --top-n 2 text.jsonl | jq -s '[.[].score] | . == (sort | reverse)'
echo "k 2:"; ev-rerank --db kb.db -k 2 text.jsonl | jq -c '[.rank, .id]'
printf 'rerank:\n  k: 2\n  weights:\n    incoming: 0\n    length: 1\nfusion:\n  method: rrf\n' >plan.yaml
echo "plan:"; ev-rerank --db kb.db --config plan.yaml text.jsonl | jq -c '[.rank, .id, .rerank.config.weights.length]'
