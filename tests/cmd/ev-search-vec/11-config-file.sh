exec 2>&1
. "$CASEDIR/../ev-embed-load/mkstore"; mkstore kb.db 6
ev-embed-load --db kb.db --index kb.faiss "$CASEDIR/../ev-embed-load/vectors.jsonl" 2>/dev/null
printf "k: 1\nsnippet: false\nmin_score: 0.1\nbogus: 3\n" > c.yaml
echo "{\"vector\":[0,0,1,0]}" | ev-search-vec --db kb.db --index kb.faiss --config c.yaml | jq -c "[.id, .score, .snippet]"
echo "{\"vector\":[0,0,1,0]}" | ev-search-vec --db kb.db --index kb.faiss --config c.yaml -k 2 | jq -c "[.id, .score]"
