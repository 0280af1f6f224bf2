# One request, three rewrites of one question: the query records share a
# request_id and say their query_index; both lanes answer each, ev-fuse fuses
# each query's lanes, and ev-pack makes ONE pack of the request: each chunk
# once, at its best score, its provenance the query that found it best, its
# provenances every query that found it, stats by query.  A query without a
# request_id is a request of its own (one pack per query still holds).
export EV_UUID_SEED=7
. "$CASEDIR/../ev-hybrid/store.inc"
cat >q.jsonl <<'END'
{"query_id":"w0","request_id":"R1","query_index":0,"query":"flutter of swept wings"}
{"query_id":"w1","request_id":"R1","query_index":1,"query":"wing flutter speed"}
{"query_id":"w2","request_id":"R1","query_index":2,"query":"swept wing loads"}
{"query_id":"h","query":"heat transfer"}
END
ev-search-text --db db -k 2 q.jsonl >text.jsonl
ev-embed --db db --role query q.jsonl | ev-search-vec --db db --index idx -k 2 >vec.jsonl
ev-fuse text.jsonl vec.jsonl >fused.jsonl
echo "fused hits: $(wc -l <fused.jsonl), packs:"
ev-pack -k 5 fused.jsonl | jq -c '{request_id, query_id, query, queries: [.queries[]? | [.query_index, .query_id]],
    evidences: [.evidences[] | [.id, .provenance.query_index, .provenance.query_text,
        ([.provenances[]? | .query_index] | join(",")), .signals.rrf_score]],
    by_query: .stats.by_query, candidates: .stats.candidates, warnings}'
echo "each chunk once, at its best score:"
ev-pack -k 0 fused.jsonl | jq -r 'select(.request_id == "R1") | .evidences[] |
    [.id, (.signals.rrf_score == ([.provenances[].score] | max) | tostring)] | @tsv'
echo "the same with the queries given (--queries), the order of the file:"
ev-pack -k 5 --queries q.jsonl fused.jsonl | jq -c '[.request_id, .query_id, [.evidences[].id]]'
echo "a query of the request that found nothing, and a request no hit came for:"
cat >q2.jsonl <<'END'
{"query_id":"w0","request_id":"R1","query_index":0,"query":"flutter of swept wings"}
{"query_id":"w9","request_id":"R1","query_index":9,"query":"zyzzyva"}
{"query_id":"x0","request_id":"R2","query_index":0,"query":"qwertz"}
{"query_id":"x1","request_id":"R2","query_index":1,"query":"asdfgh"}
END
grep '"w0"' fused.jsonl | ev-pack -k 5 --queries q2.jsonl |
    jq -c '[.request_id, .query_id, [.queries[].query_id], (.evidences | length), .stats.by_query, .warnings]'
