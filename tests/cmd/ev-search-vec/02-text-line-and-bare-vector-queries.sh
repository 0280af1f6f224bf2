exec 2>&1
. "$CASEDIR/../ev-embed-load/mkstore"; mkstore kb.db 6
ev-embed-load --db kb.db --index kb.faiss "$CASEDIR/../ev-embed-load/vectors.jsonl" 2>/dev/null
# a bare vector query is answered; a line of text (no vector) stops the run
printf "%s\n" "{\"vector\":[0,0,1,0]}" "\"just text\"" | ev-search-vec --db kb.db --index kb.faiss -k 2 --no-snippet > hits
echo "exit $?"
jq -c "[.query_id, .id, .rank, .score]" hits
