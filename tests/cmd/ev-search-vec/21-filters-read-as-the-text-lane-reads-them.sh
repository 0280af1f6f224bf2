# The vector lane reads a query's filters as the text lane does, one grammar
# for both (ev-hybrid sends the same record to each): source_type and
# language; doc_id and doc_ids, each a string or a list, every key restricting
# further; a list of metadata values (any of them); null as a metadata value
# (the key is there, and null) and as a date bound (no bound).  Each line: the
# filters, then the documents of each lane's hits.
exec 2>&1
. "$CASEDIR/../ev-embed-load/mkstore"; mkstore kb.db 6
ev-embed-load --db kb.db --index kb.faiss "$CASEDIR/../ev-embed-load/vectors.jsonl" 2>/dev/null
# (as ev-ingest does with a declared language, each chunk takes its document's)
sqlite3 kb.db "UPDATE documents SET source_type = CASE doc_id WHEN 'd2' THEN 'html' ELSE 'pdf' END,
  language = CASE doc_id WHEN 'd3' THEN 'fr' ELSE 'en' END;
  UPDATE chunks SET language = CASE doc_id WHEN 'd3' THEN 'fr' ELSE 'en' END"
for f in '{"source_type":"html"}' '{"language":["fr"]}' '{"source_type":"pdf","language":"en"}' \
    '{"doc_id":["d1","d3"]}' '{"doc_ids":"d2"}' '{"doc_id":"d1","doc_ids":["d1","d3"]}' \
    '{"metadata":{"topic":["odd","none"]}}' '{"metadata":{"lab":null}}' \
    '{"published_date":{"from":null,"to":"2024-01-02"}}'; do
	rec="{\"query_id\":1,\"query\":\"wing\",\"vector\":[1,0,0,0],\"filters\":$f}"
	text=$(echo "$rec" | ev-search-text --db kb.db -k 6 | jq -r .doc_id | sort -u | tr '\n' ' ')
	vec=$(echo "$rec" | ev-search-vec --db kb.db --index kb.faiss -k 6 --no-snippet | jq -r .doc_id |
		sort -u | tr '\n' ' ')
	echo "$f  text: $text vector: $vec"
done
echo '{"vector":[1,0,0,0],"filters":{"doc_ids":[]}}' | ev-search-vec --db kb.db --index kb.faiss
echo "exit $?"
