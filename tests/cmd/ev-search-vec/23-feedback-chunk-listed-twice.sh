# --feedback-hits folds in the first --feedback chunks of a query, each
# chunk once at its best rank: a lane that lists d2:s1:0 at ranks 1 and 2
# (hits concatenated, a chunk found twice) does not fold it in twice and
# leave out d1:s1:1 at rank 3.  With --feedback 2, q1 [1,0,0,0] folds
# d2:s1:0 and d1:s1:1, as the same hits without the repeat do.
export EV_FIXED_TIME=2026-11-29T02:10:33.123Z	# the lanes' stamp (retrieved_at), pinned
exec 2>&1
. "$CASEDIR/../ev-embed-load/mkstore"; mkstore kb.db 6
ev-embed-load --db kb.db --index kb.faiss "$CASEDIR/../ev-embed-load/vectors.jsonl" 2>/dev/null
cat >twice.jsonl <<'J'
{"query_id":"q1","id":"d2:s1:0","rank":2,"score":4,"lane":"text"}
{"query_id":"q1","id":"d1:s1:1","rank":3,"score":3,"lane":"text"}
{"query_id":"q1","id":"d2:s1:0","rank":1,"score":5,"lane":"text"}
J
grep -v '"rank":2' twice.jsonl >once.jsonl
echo '{"query_id":"q1","vector":[1,0,0,0],"model":"m1"}' >q.jsonl
for hits in twice.jsonl once.jsonl; do
	ev-search-vec --db kb.db --index kb.faiss -k 2 --no-snippet --feedback 2 \
		--feedback-hits $hits q.jsonl | jq -c '[.id, .score, .evidence[0].feedback]'
done
