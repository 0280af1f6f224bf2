# --queries FILE: one pack per query of FILE, in its order, each with its own
# query_id; a query no lane found anything for gets an empty pack and a
# warning; provenance.query_index is the index within the request (0).
export EV_FIXED_TIME=2026-02-20T12:00:00Z EV_UUID_SEED=7
L=$CASEDIR/../ev-fuse
cat >q.jsonl <<'END'
{"query_id": "q0", "query": "nothing matches this"}
{"query_id": "q1", "query": "wing flutter"}
"a bare string query"
{"query_id": "q2", "query": "boundary layer"}
{"query_id": 17, "query": "last, and no hit"}
END
ev-fuse "$L/text.jsonl" "$L/vector.jsonl" >fused.jsonl
ev-pack --queries q.jsonl fused.jsonl >packs.jsonl
echo "status $?"
/usr/bin/python3 "$CASEDIR/../../../scripts/validate-evidencepack.py" <packs.jsonl
jq -c '[.query_id, .query, (.evidences | length), .stats.candidates, ([.evidences[].provenance.query_index] | unique), .warnings]' packs.jsonl
# without --queries: only the queries with hits, each with its query_id
ev-pack fused.jsonl | jq -c '[.query_id, .query]'
# the hits must follow the order of FILE, and name only its queries
tac q.jsonl >rev.jsonl
ev-pack --queries rev.jsonl fused.jsonl >/dev/null; echo "status $?"
grep -v q2 q.jsonl >no-q2.jsonl
ev-pack --queries no-q2.jsonl fused.jsonl >/dev/null; echo "status $?"
printf '"a"\n{"query_id": 1, "query": "b"}\n' >twice.jsonl
ev-pack --queries twice.jsonl </dev/null; echo "status $?"
ev-pack --queries missing.jsonl </dev/null; echo "status $?"
# no hits at all: every query still gets its pack
ev-pack --queries q.jsonl </dev/null | jq -c '[.query_id, .evidences, .warnings]'
