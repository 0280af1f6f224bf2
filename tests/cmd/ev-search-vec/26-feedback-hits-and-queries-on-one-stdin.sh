# --feedback-hits - reads the other lane's hits from standard input, which
# can be read once: the queries must then come from files.  Both on standard
# input read the one as the other ("missing field 'id'"), or the queries
# found standard input spent and nothing was written, exit 0.  Bad usage
# now, as ev-pack's --queries - and ev-eval's --qrels - are.
exec 2>&1
. "$CASEDIR/../ev-embed-load/mkstore"; mkstore kb.db 6
ev-embed-load --db kb.db --index kb.faiss "$CASEDIR/../ev-embed-load/vectors.jsonl" >/dev/null
echo '{"query_id":"q","vector":[1,0,0,0]}' >q.jsonl
echo '{"query_id":"q","id":"d2:s1:0","rank":1,"score":1,"lane":"text"}' >text.jsonl
ev-search-vec --db kb.db --index kb.faiss -k 1 --feedback-hits - <q.jsonl
echo "exit $?"
ev-search-vec --db kb.db --index kb.faiss -k 1 --feedback-hits - - <text.jsonl
echo "exit $?"
ev-search-vec --db kb.db --index kb.faiss -k 1 --no-snippet --feedback-hits - q.jsonl <text.jsonl | jq -c '[.query_id, .id, .lane]'
