# Maximal marginal relevance (--mmr-lambda, plan key diversity.mmr_lambda):
# each next evidence is the candidate with the best
# lambda * relevance - (1 - lambda) * its greatest similarity to one kept,
# relevance being the score scaled to [0, 1] over the candidates looked at
# (--mmr-depth); without vectors, similarity is word overlap.  Lambda 1 (the
# default) keeps the ranking; a lower lambda moves a near-repeat of the
# first evidence (below the near-duplicate threshold) down.
cat >hits.jsonl <<'EOF2'
{"query_id":"q","id":"a:0:0","doc_id":"a","score":0.9,"source_uri":"a","snippet":"swarm control in spring: split the colony before the queen cells are capped"}
{"query_id":"q","id":"b:0:0","doc_id":"b","score":0.85,"source_uri":"b","snippet":"swarm control in spring: split the colony before queen cells are capped, and feed"}
{"query_id":"q","id":"c:0:0","doc_id":"c","score":0.8,"source_uri":"c","snippet":"varroa mites are counted with an alcohol wash of three hundred bees"}
{"query_id":"q","id":"d:0:0","doc_id":"d","score":0.3,"source_uri":"d","snippet":"a hive scale records the nectar flow day by day"}
EOF2
for l in 1 0.7 0.3; do
	ev-pack -k 3 --mmr-lambda $l hits.jsonl |
	    jq -c '[[.evidences[] | [.id, .signals.mmr_score]], .explain.diversity.mmr, .plan.diversity.mmr_lambda]'
done
echo "depth 2: only the first two are looked at"
ev-pack -k 3 --mmr-lambda 0.3 --mmr-depth 2 hits.jsonl | jq -c '[[.evidences[].id], .explain.diversity.mmr]'
printf 'diversity:\n  mmr_lambda: 0.3\n' >plan.yaml
ev-pack -k 3 --plan plan.yaml hits.jsonl | jq -c '[.evidences[].id]'
