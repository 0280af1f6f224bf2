# Presentation is strict: --min-score drops low scores; --by-document keeps at
# most N per document; near-duplicates (same content hash, or >= 0.9 word
# overlap) are dropped; explain says what was dropped.
cat >hits.jsonl <<EOF
{"query_id":"q","id":"a:0:0","doc_id":"a","rank":1,"score":0.9,"lane":"fused","source_uri":"a.txt","snippet":"flutter of swept wings at high subsonic speed","content_hash":"sha256:01"}
{"query_id":"q","id":"a:0:1","doc_id":"a","rank":2,"score":0.8,"lane":"fused","source_uri":"a.txt","snippet":"the divergence speed of a swept wing"}
{"query_id":"q","id":"b:0:0","doc_id":"b","rank":3,"score":0.7,"lane":"fused","source_uri":"b.txt","snippet":"a copy","content_hash":"sha256:01"}
{"query_id":"q","id":"c:0:0","doc_id":"c","rank":4,"score":0.6,"lane":"fused","source_uri":"https://c.example/x","snippet":"Flutter of SWEPT wings, at high subsonic speed!"}
{"query_id":"q","id":"d:0:0","doc_id":"d","rank":5,"score":0.5,"lane":"fused","source_uri":"d.txt","snippet":"panel flutter"}
{"query_id":"q","id":"e:0:0","doc_id":"e","rank":6,"score":0.01,"lane":"fused","source_uri":"e.txt","snippet":"noise"}
EOF
ev-pack --min-score 0.1 --by-document 1 hits.jsonl | jq -c "[[.evidences[].id], .explain.diversity, .explain.filters_applied, .stats.returned]"
ev-pack --no-dedupe --by-document 0 hits.jsonl | jq -c "[[.evidences[].id], .explain.diversity]"
ev-pack --overlap 0.5 --by-document 0 hits.jsonl | jq -c "[[.evidences[] | [.id, .source_type]], .explain.diversity.dropped_duplicates]"
