# What other stages leave on the hits reaches the pack: a hit's "rerank"
# object becomes explain.rerank; its "warnings" go into the pack's warnings,
# each once, in the order first seen, after --warning's; a query record of
# --queries with a "routing" object gives explain.routing and each
# evidence's routing (without --queries, the hits' own routing does).
cat >hits.jsonl <<'EOF2'
{"query_id":"q1","id":"a:0:0","doc_id":"a","score":0.9,"source_uri":"a","snippet":"a","rerank":{"enabled":true,"model":"builtin-features","top_n":50},"warnings":["rerank command failed: kept the incoming order","x"]}
{"query_id":"q1","id":"b:0:0","doc_id":"b","score":0.8,"source_uri":"b","snippet":"b","rerank":{"enabled":true,"model":"builtin-features","top_n":50},"warnings":["rerank command failed: kept the incoming order"]}
{"query_id":"q1","id":"c:0:0","doc_id":"c","score":0.7,"source_uri":"c","snippet":"c","warnings":["y","x","lane vector unavailable"]}
{"query_id":"q2","id":"a:0:0","doc_id":"a","score":0.5,"source_uri":"a","snippet":"a","routing":{"by":"default"}}
EOF2
cat >q.jsonl <<'EOF2'
{"query_id":"q1","query":"a map of the site","lanes":["visual"],"routing":{"by":"rule","rule":0,"matched":"map"}}
{"query_id":"q2","query":"plain"}
EOF2
ev-pack --warning "lane vector unavailable" hits.jsonl |
    jq -c '[.query_id, .explain.rerank, .warnings, .explain.routing, [.evidences[].routing]]'
ev-pack --queries q.jsonl hits.jsonl |
    jq -c '[.query_id, .explain.routing, [.evidences[].routing]]'
