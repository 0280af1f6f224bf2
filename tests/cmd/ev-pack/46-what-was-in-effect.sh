# A pack says what was in effect, and what was not, on a real store and
# index: the filters the lanes applied in explain.filters_applied (a date
# range and an authority, as time_range and authority_id); explain.rerank
# always {enabled, model, top_n}, and a warning when the plan names a model
# the reranker does not have; signals.rerank_score after ev-rerank;
# recency_score from the document's published_date (explain.recency says
# the decay); tag_score and topic_score when the query names tag_ids or
# topic_ids and the documents carry them; every signal of the format the run
# could not give in explain.ignored_fields with its reason; seed metadata
# (authority_id, document_id, doc_type, published_date, policy_*); a memory
# snapshot's source_type and kind; and an expansion's own score on the
# evidence it adds to a chunk found directly.
export EV_FIXED_TIME=2026-01-01T00:00:00Z
cat >docs.jsonl <<'END'
{"id":"d1","title":"Flutter of swept wings","text":"The flutter of swept wings at high subsonic speed was measured in a wind tunnel. Flutter speed falls with sweep.","authority_id":"A1","doc_type":"report","published_date":"2025-01-01","policy_clause_id":"P1.2","metadata":{"tags":["aero","wing"],"topics":["design"]}}
{"id":"d2","title":"Panel flutter","text":"Panel flutter at supersonic speed: thin panels flutter when the dynamic pressure exceeds a critical value.","authority_id":"A2","doc_type":"note","published_date":"2019-06-01","source_type":"memory_snapshot"}
{"id":"d3","title":"Flutter in a gust","text":"Flutter speed of a wing flying through gusts, with the wing as an elastic beam; flutter speed rises with stiffness.","authority_id":"A1","published_date":"2024-01-01"}
END
ev-ingest --db db --quiet docs.jsonl
ev-embed --db db --train --dim 4 --min-df 1 >/dev/null
ev-ingest --db db --all docs.jsonl | ev-embed --db db --role document | ev-embed-load --db db --index idx 2>/dev/null
echo "--- a text lane with a date and an authority filter"
echo '{"query_id":"q1","query":"flutter speed","filters":{"published_date":{"from":"2020","to":"2025-06"},"metadata":{"authority_id":"A1"}}}' >q1.jsonl
ev-search-text --db db q1.jsonl | ev-pack >p1.json
jq -c '.explain.filters_applied, .explain.rerank, .explain.recency, .explain.ignored_fields' p1.json
jq -c '.evidences[] | [.id, .kind, .source_type, .signals.recency_score, .metadata]' p1.json
echo "--- both lanes fused, the filters the vector lane applied too"
echo '{"query_id":"q2","query":"flutter speed","filters":{"doc_ids":["d1","d2"],"source_type":"memory_snapshot"}}' >q2.jsonl
ev-search-text --db db q2.jsonl >t2.jsonl
ev-embed --db db --role query q2.jsonl | ev-search-vec --db db --index idx >v2.jsonl
ev-fuse t2.jsonl v2.jsonl | ev-pack | jq -c '.explain.filters_applied, (.evidences[] | [.id, .kind, .source_type])'
echo "--- reranked by a plan naming a model the reranker does not have"
printf 'rerank:\n  model: qwen3-reranker\n  top_n: 2\n' >plan.yaml
echo '{"query_id":"q3","query":"flutter speed","tag_ids":["aero","ice"],"topic_ids":["design"]}' >q3.jsonl
ev-search-text --db db q3.jsonl | ev-rerank --config plan.yaml --db db 2>/dev/null | ev-pack --plan plan.yaml 2>/dev/null >p3.json
jq -c '.explain.rerank | [.enabled, .model, .top_n]' p3.json
jq -c '.warnings' p3.json
jq -c '.evidences[] | [.id, .signals.rerank_score, .signals.tag_score, .signals.topic_score]' p3.json
jq -c '.explain.ignored_fields' p3.json
echo "--- a plan asking for reranking, the hits not reranked"
ev-search-text --db db q3.jsonl | ev-pack --plan plan.yaml 2>/dev/null | jq -c '.explain.rerank, .warnings'
echo "--- expansion after the text lane: each added piece of evidence has its score"
echo '{"query_id":"q4","query":"flutter"}' | ev-search-text --db db -k 3 | ev-expand --db db --timeline 1 | ev-pack |
	jq -c '.evidences[] | [.id, [.evidence[] | [.lane, (.score | type)]]]'
for f in p1.json p3.json; do python3 "$CASEDIR/../../../scripts/validate-evidencepack.py" <$f; done
