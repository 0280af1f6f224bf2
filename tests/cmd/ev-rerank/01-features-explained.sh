# The built-in model: each reranked hit keeps the chunk's fields, gets rank
# and score rewritten (score falling as rank rises) and explains each
# feature and the contributions of the weights that are not 0; the "rerank"
# object names the model, its weights and top_n.
. "$CASEDIR/store.inc"
echo '{"query_id":"q1","query":"varroa mites"}' | ev-search-text --db kb.db -k 10 --feedback 0 >text.jsonl
ev-rerank --db kb.db --log run.log text.jsonl >out.jsonl
echo "exit $?"
jq -c '[.rank, .id, (.score * 1e4 | round), .explain.rerank.incoming_rank]' out.jsonl
# scores fall as ranks rise
jq -s '[.[].score] | . == (sort | reverse)' out.jsonl
# the first hit's features and contributions, rounded
head -1 out.jsonl | jq -c '.explain.rerank.features | map_values(. * 1e4 | round)'
head -1 out.jsonl | jq -c '.explain.rerank.contributions | map_values(. * 1e4 | round)'
head -1 out.jsonl | jq -c '.rerank | [.model, .top_n, .config.window, .config.passage, .config.weights.coverage]'
# the chunk's fields pass through
head -1 out.jsonl | jq -c '[.doc_id, .lane, (.evidence | length)]'
jq -c '[.tool, .counts.hits, .counts.queries, .counts.reranked, .exit]' run.log
