# The reranker weighs each query word by its document frequency in the store,
# for a stem of any language: in a store of French notes, "abeilles" (in
# every note) weighs little beside "varroa" (in one), so the note that says
# "abeilles" three times has a small share of the query's weight (coverage
# and bm25).  Both weighed alike, as words found nowhere, when the French
# stems, tagged with their language in the index, were looked up untagged.
ev-ingest --db kb.db --quiet <<'JSONL' || exit 1
{"id":"varroa","title":"Traitement","language":"fr","text":"Les abeilles et le varroa en hiver."}
{"id":"trois","title":"Ruche","language":"fr","text":"Les abeilles, les abeilles, encore les abeilles."}
{"id":"dorment","title":"Hiver","language":"fr","text":"Les abeilles dorment en hiver."}
{"id":"butinent","title":"Printemps","language":"fr","text":"Les abeilles butinent au printemps."}
JSONL
echo '{"query_id":"q","query":"abeilles varroa"}' | ev-search-text --db kb.db -k 10 --feedback 0 >text.jsonl
ev-rerank --db kb.db text.jsonl |
	jq -c '[.doc_id, (.explain.rerank.features.bm25 * 1e4 | round), (.explain.rerank.features.coverage * 1e4 | round)]'
