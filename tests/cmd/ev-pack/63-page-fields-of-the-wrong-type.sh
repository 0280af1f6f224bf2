# A hit's page and page_end are whole numbers: "page": "3" or a page_end of
# [4] was dropped from the pack unsaid, and so was a page of 3.0 (as a
# JavaScript writer writes 3).  The hit's own (a chunk's field) of another
# type is bad input (exit 2, FILE:LINE).  Its metadata's, shown when the hit
# has none of its own, is the text lane's for a PDF chunk or the document's
# own metadata, free-form: one that is not a whole number is left out, and
# said once a run, naming the first such hit; 3.0 is 3 in either.
exec 2>&1
hit='{"query_id":"q","query":"mites","doc_id":"d","rank":1,"score":1,"lane":"text"'
for f in '"page":"3"' '"page_end":[4]' '"page":1.5'; do
	printf '%s\n' "$hit,\"id\":\"a\",$f}" >hits.jsonl
	ev-pack hits.jsonl
	echo "exit $?"
done
echo "-- whole numbers, 3.0 among them, or null:"
for f in '"page":3,"page_end":4' '"page":3.0' '"metadata":{"page":3.0,"page_end":4}' \
    '"page":2,"metadata":{"page":"iv"}' '"page":null,"chunk_index":0.0'; do
	printf '%s\n' "$hit,\"id\":\"a\",$f}" | ev-pack | jq -c '.evidences[0].metadata'
done
echo "-- the metadata's, not whole numbers: left out, said once:"
printf '%s\n' "$hit,\"id\":\"a\",\"metadata\":{\"page\":\"iv\",\"team\":\"ops\"}}" \
	"$hit,\"id\":\"b\",\"page\":null,\"metadata\":{\"page\":2,\"page_end\":true}}" >hits.jsonl
ev-pack hits.jsonl | jq -c '[.evidences[].metadata]'
