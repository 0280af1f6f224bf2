# With --db and --index, MMR measures similarity by the cosine of the
# chunks' stored vectors (those the index was built from); a candidate the
# store has no vector for is compared by word overlap and counted
# (without_vector).  The store is opened only when MMR runs.
. "$CASEDIR/../ev-hybrid/store.inc"
echo '{"query_id":"q","query":"swept wing flutter"}' >q.jsonl
ev-search-text --db db -k 5 q.jsonl >text.jsonl
ev-embed --db db --role query q.jsonl | ev-search-vec --db db --index idx -k 5 >vec.jsonl
ev-fuse text.jsonl vec.jsonl >fused.jsonl
echo '{"query_id":"q","id":"elsewhere:0:0","doc_id":"x","score":0.001,"lane":"text","snippet":"not in the store"}' >>fused.jsonl
ev-pack -k 4 fused.jsonl | jq -c '[.evidences[].id]'
ev-pack -k 4 --db db --index idx --mmr-lambda 0.3 fused.jsonl |
    jq -c '[[.evidences[].id], .explain.diversity.mmr]'
ev-pack -k 4 --mmr-lambda 0.3 fused.jsonl | jq -c '[[.evidences[].id], .explain.diversity.mmr]'
ev-pack -k 4 --db db --index idx fused.jsonl | jq -c '.explain.diversity.mmr'
