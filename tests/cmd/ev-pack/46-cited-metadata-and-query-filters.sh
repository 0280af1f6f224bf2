# The document's own section_path reaches the evidence's metadata where its
# chunk has none (a document without headings), and a query's filters,
# which the lanes applied, are said in explain.filters_applied even when no
# lane found anything for it (ev-pack --queries), as when they did.
cat >docs.jsonl <<'END'
{"id":"m2","title":"Old policy","text":"Rotate every client secret yearly.","authority_id":"sec-team","doc_type":"policy","published_date":"2019-01-01","section_path":"Policies > Secrets"}
END
ev-ingest --db kb.db --quiet docs.jsonl
echo '"rotate client secret"' | ev-search-text --db kb.db | ev-pack | jq -c '.evidences[].metadata'
cat >q.jsonl <<'END'
{"query_id":"none","query":"rotate client secret","filters":{"published_date":{"from":"2020"},"metadata":{"authority_id":"sec-team"}}}
{"query_id":"some","query":"rotate client secret","filters":{"published_date":{"to":"2020"},"metadata":{"authority_id":"sec-team"}}}
END
ev-search-text --db kb.db q.jsonl | ev-pack --queries q.jsonl | jq -c '[.query_id, (.evidences | length), .explain.filters_applied]'
