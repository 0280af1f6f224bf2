# --format text of a request of several queries (rewrites sharing a
# request_id) shows every query of the request, in query_index order, not
# the first alone; a request of one query shows that one.
export EV_UUID_SEED=7
. "$CASEDIR/../ev-hybrid/store.inc"
cat >q.jsonl <<'END'
{"query_id":"w1","request_id":"R1","query_index":1,"query":"wing flutter speed"}
{"query_id":"w0","request_id":"R1","query_index":0,"query":"flutter of swept wings"}
{"query_id":"w2","request_id":"R1","query_index":2,"query":"swept wing loads"}
{"query_id":"h","query":"heat transfer"}
END
ev-search-text --db db -k 2 q.jsonl | ev-pack -k 2 --format text | grep '^query'
