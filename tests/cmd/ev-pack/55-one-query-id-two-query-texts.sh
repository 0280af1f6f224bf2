# Hits of one query_id giving two query texts are of two queries: packing
# them as one labelled every evidence with the first text, also those found
# for the other.  A hit whose query text is not its query's is bad input
# (exit 2) naming it; --skip-invalid leaves it out.  Hits without a text,
# or with the same text escaped otherwise, belong to the query.
printf '%s\n' '{"query_id":"q1","query":"wing flutter","id":"a","rank":1,"score":1}' \
	'{"query_id":"q1","query":"boundary layer","id":"b","rank":2,"score":0.5}' \
	'{"query_id":"q1","query":"wing \u0066lutter","id":"c","rank":3,"score":0.25}' \
	'{"query_id":"q1","id":"d","rank":4,"score":0.125}' >hits.jsonl
ev-pack hits.jsonl >/dev/null
echo "exit $?"
ev-pack --skip-invalid hits.jsonl | jq -c '[.query, [.evidences[] | [.id, .provenance.query_text]]]'
echo "exit $?"
