# A stage that adds hits (ev-expand's neighbours) may not copy the query's
# request_id: such a hit belongs to its query's request, whether it comes
# before or after the hits that name the request.
cat >hits.jsonl <<'EOF2'
{"query_id":"w0","id":"a:0:1","score":0.5,"lane":"neighbour","source_uri":"a"}
{"query_id":"w0","request_id":"R","query_index":0,"id":"a:0:0","score":0.9,"lane":"text","source_uri":"a"}
{"query_id":"w1","request_id":"R","query_index":1,"id":"b:0:0","score":0.8,"lane":"text","source_uri":"b"}
{"query_id":"w1","id":"b:0:1","score":0.4,"lane":"neighbour","source_uri":"b"}
{"query_id":"solo","id":"c:0:0","score":0.7,"lane":"text","source_uri":"c"}
EOF2
ev-pack hits.jsonl | jq -c '[.request_id, .query_id, [.evidences[] | [.id, .provenance.query_index]]]' |
    sed 's/"[0-9a-f-]\{36\}"/UUID/'
