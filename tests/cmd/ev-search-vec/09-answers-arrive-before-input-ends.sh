exec 2>&1
. "$CASEDIR/../ev-embed-load/mkstore"; mkstore kb.db 6
ev-embed-load --db kb.db --index kb.faiss "$CASEDIR/../ev-embed-load/vectors.jsonl" 2>/dev/null
mkfifo in out
ev-search-vec --db kb.db --index kb.faiss -k 1 --no-snippet < in > out &
exec 3> in 4< out
echo "{\"query_id\":\"first\",\"vector\":[1,0,0,0]}" >&3
# the answer to the first query is read while the input is still open
timeout 60 head -n 1 <&4 | jq -c "[.query_id, .id]"
echo "{\"query_id\":\"second\",\"vector\":[0,1,0,0]}" >&3
exec 3>&-
jq -c "[.query_id, .id]" <&4
wait
