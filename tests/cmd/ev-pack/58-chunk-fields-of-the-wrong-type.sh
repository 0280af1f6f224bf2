# A hit's chunk fields that the pack reads (title, section_id, source_uri,
# language, content_hash, chunk_index, offsets, ...) must each be of its
# type when given (null is absent): title 5 or chunk_index "0" was dropped
# from the pack unsaid.  Such a hit is bad input (exit 2, FILE:LINE).
exec 2>&1
hit='{"query_id":"q","query":"mites","id":"d:_top:0","doc_id":"d","rank":1,"score":1,"lane":"text"'
for f in '"title":5' '"section_title":["a"]' '"source_uri":{}' '"language":true' '"content_hash":1' \
    '"chunk_index":"0"' '"offset_start":1.5' '"offset_end":"9"'; do
	printf '%s\n' "$hit,$f}" >hits.jsonl
	ev-pack hits.jsonl
	echo "exit $?"
done
echo "-- of the right type, or null:"
printf '%s\n' "$hit,\"title\":\"Mites\",\"chunk_index\":0,\"language\":null}" |
	ev-pack | jq -c '.evidences[0] | [.title, .metadata.chunk_index, .language]'
