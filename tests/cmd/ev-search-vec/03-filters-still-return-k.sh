exec 2>&1
. "$CASEDIR/../ev-embed-load/mkstore"; mkstore kb.db 6
ev-embed-load --db kb.db --index kb.faiss "$CASEDIR/../ev-embed-load/vectors.jsonl" 2>/dev/null
for f in "{\"doc_id\":\"d2\"}" "{\"doc_ids\":[\"d1\",\"d3\"]}" "{\"metadata\":{\"topic\":\"even\"}}" "{\"published_date\":{\"from\":\"2024-01-03\"}}" "{\"doc_id\":\"d9\"}"; do
	echo "{\"query_id\":1,\"vector\":[1,0,0,0],\"filters\":$f}" | ev-search-vec --db kb.db --index kb.faiss -k 2 --no-snippet | jq -c "[.id, .rank, .score]"
done
echo "{\"vector\":[1,0,0,0],\"filters\":{\"author\":\"x\"}}" | ev-search-vec --db kb.db --index kb.faiss; echo "exit $?"
echo "{\"vector\":[1,0,0,0],\"filters\":[1]}" | ev-search-vec --db kb.db --index kb.faiss; echo "exit $?"
