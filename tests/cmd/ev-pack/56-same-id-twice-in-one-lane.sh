# A chunk one lane lists twice among one query's hits is bad input (exit 2)
# naming both places, as ev-fuse, ev-rerank and ev-expand refuse it;
# --skip-invalid keeps the first.  The same id from another lane is merged
# (the higher score wins), and so is the same id found by another query of
# the request; hits naming no lane are one lane.  A lane's name is compared
# as decoded ("te\u0078t" is "text").
h() { printf '{"query_id":"%s","request_id":"R","id":"%s","score":%s%s}\n' "$1" "$2" "$3" "$4"; }
{ h q1 a 3 ',"lane":"text"'; h q1 b 2 ',"lane":"text"'; h q1 a 0.5 ',"lane":"vector"'
  h q1 a 1 ',"lane":"te\u0078t"'; } >hits.jsonl
ev-pack hits.jsonl
echo "exit $?"
ev-pack --skip-invalid hits.jsonl | jq -c '[.evidences[] | [.id, .provenance.mode, [.evidence[] | [.lane, .score]]]]'
echo "exit $?"
{ h q1 a 3 ',"lane":"text"'; h q2 a 4 ',"lane":"text"'; h q2 b 1 ''; h q2 b 2 ''; } >queries.jsonl
ev-pack queries.jsonl
echo "exit $?"
ev-pack --skip-invalid queries.jsonl | jq -c '[.evidences[] | [.id, .provenance.query_index, [.evidence[] | [.lane, .score]]]]'
