# --skip-invalid: bad query records (a vector of another dimension, bad
# JSON, a bad filter) are named, skipped and counted; the others are
# answered, in order; exit 0.  Without it the first bad record stops (2).
exec 2>&1
. "$CASEDIR/../ev-embed-load/mkstore"; mkstore kb.db 6
ev-embed-load --db kb.db --index kb.faiss "$CASEDIR/../ev-embed-load/vectors.jsonl" 2>/dev/null
cat > q.jsonl <<'Q'
{"query_id":"a","vector":[1,0,0,0]}
{"query_id":"b","vector":[1,0]}
{"query_id":
{"query_id":"c","vector":[0,1,0,0],"filters":{"colour":"red"}}
{"query_id":"d","vector":[0,0,1,0],"filters":{"doc_id":"d2"}}
Q
ev-search-vec --db kb.db --index kb.faiss -k 1 --no-snippet --skip-invalid --log log.jsonl q.jsonl > hits.jsonl; echo "exit $?"
jq -c '[.query_id, .id]' hits.jsonl
jq -c .counts log.jsonl
ev-search-vec --db kb.db --index kb.faiss -k 1 --no-snippet q.jsonl > hits.jsonl; echo "exit $?"
jq -c '[.query_id, .id]' hits.jsonl
