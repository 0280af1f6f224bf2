# --feedback-hits: each query's vector plus --feedback-weight times the mean
# of the stored vectors of its first --feedback chunks (by rank) in another
# lane's hits, at unit length; hits of lane vector_feedback, their evidence
# naming the chunks folded in.  q1 [1,0,0,0] with d2:s1:0 [0,0,1,0] (rank 1;
# rank 2 has no vector, rank 3 is beyond --feedback 2): [1,0,1,0]/sqrt(2).
# q2 has no feedback hits: its own vector.  A bad hit line: exit 2 naming it.
export EV_FIXED_TIME=2026-11-29T02:10:33.123Z	# the lanes' stamp (retrieved_at), pinned
exec 2>&1
. "$CASEDIR/../ev-embed-load/mkstore"; mkstore kb.db 6
ev-embed-load --db kb.db --index kb.faiss "$CASEDIR/../ev-embed-load/vectors.jsonl" 2>/dev/null
cat >text.jsonl <<'J'
{"query_id":"q1","id":"nope:0","rank":2,"score":4,"lane":"text"}
{"query_id":"q1","id":"d2:s1:0","rank":1,"score":5,"lane":"text"}
{"query_id":"q1","id":"d1:s1:1","rank":3,"score":3,"lane":"text"}
J
printf '%s\n' '{"query_id":"q1","vector":[1,0,0,0],"model":"m1"}' \
	'{"query_id":"q2","vector":[0,1,0,0],"model":"m1"}' >q.jsonl
ev-search-vec --db kb.db --index kb.faiss -k 3 --no-snippet --feedback 2 \
	--feedback-hits text.jsonl q.jsonl | jq -c '[.query_id, .id, .score, .lane, .signals, .evidence]'
echo "status $?"
echo "--- weight 0: the query's own vector, the chunks still named"
ev-search-vec --db kb.db --index kb.faiss -k 1 --no-snippet --feedback-weight 0 \
	--feedback-hits text.jsonl q.jsonl | jq -c '[.query_id, .id, .score, .evidence]'
echo "--- a bad hit line"
echo '{"query_id":"q1","rank":1,"score":2}' >bad.jsonl
ev-search-vec --db kb.db --index kb.faiss --feedback-hits bad.jsonl q.jsonl
echo "status $?"
ev-search-vec --db kb.db --index kb.faiss --feedback-hits missing.jsonl q.jsonl
echo "status $?"
