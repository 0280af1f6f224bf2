# A hit's or a query record's query_index, and a hit's rerank.top_n, is a
# whole number from 0: 1.0 (as a JavaScript writer writes 1) is 1.  The
# pack refused one of 1.0 saying it "must be a whole number from 0", which
# it is.  0.5, -1 and "1" stay bad input (exit 2, FILE:LINE).
exec 2>&1
hit() {	# QUERY_ID QUERY_INDEX ID RANK [MORE]
	printf '{"query_id":"%s","request_id":"R","query_index":%s,"query":"mites %s","id":"%s","doc_id":"%s","score":1,"lane":"text","rank":%s%s}\n' \
	    "$1" "$2" "$1" "$3" "$3" "$4" "${5:-}"
}
echo "-- hits: the first (parsed) and a later one (scanned) of each query"
{ hit a 0.0 d:_top:1 1; hit a 0.0 d:_top:2 2; hit b 1.0 d:_top:3 1; hit b 1.0 d:_top:4 2; } >hits.jsonl
ev-pack hits.jsonl | jq -c '[.queries, [.evidences[] | [.id, .provenance.query_index]]]'
echo "-- query records"
printf '%s\n' '{"query_id":"a","request_id":"R","query_index":0.0,"query":"mites a"}' \
    '{"query_id":"b","request_id":"R","query_index":1.0,"query":"mites b"}' >q.jsonl
sed 's/"query_index":[0-9.]*,//' hits.jsonl | ev-pack --queries q.jsonl |
	jq -c '[.queries, [.evidences[] | [.id, .provenance.query_index]]]'
echo "-- rerank.top_n"
hit a 0 d:_top:1 1 ',"rerank":{"model":"builtin","top_n":5.0}' | ev-pack | grep -o '"rerank":{[^}]*}'
echo "-- refused"
for v in 0.5 -1 '"1"'; do
	hit a "$v" d:_top:1 1 | ev-pack >/dev/null
	echo "exit $?"
	{ hit a 0 d:_top:1 1; hit a "$v" d:_top:2 2; } | ev-pack >/dev/null
	echo "exit $?"
	printf '{"query_id":"a","query_index":%s,"query":"mites a"}\n' "$v" >bad-q.jsonl
	hit a 0 d:_top:1 1 | sed 's/"query_index":0,//' | ev-pack --queries bad-q.jsonl >/dev/null
	echo "exit $?"
	hit a 0 d:_top:1 1 ",\"rerank\":{\"top_n\":$v}" | ev-pack >/dev/null
	echo "exit $?"
done
