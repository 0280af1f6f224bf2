# Citation markers in an answer ("[1]", "[c12]", "[2, 3]", "[^4]", a
# citation's id in brackets) are not words of its claims: a fully supported
# answer that cites its passages scores 1, and no marker is listed as an
# unsupported word.  A bracketed word ("[sic]") still counts.
cat >a.jsonl <<'JSONL'
{"query_id":"q1","query":"turbulent flow","answer":"Turbulent flows cause drag [1]. Drag rises with speed [c12][2, 3]. It falls later [^4] [d1:s:0].","citations":[{"id":"d1:s:0","text":"Drag is caused by turbulent flow; it rises with speed and falls later."}]}
{"query_id":"q2","query":"turbulent flow","answer":"Turbulent flows cause drag [sic] [1].","citations":[{"id":"c1","text":"Drag is caused by turbulent flow."}]}
JSONL
ev-score a.jsonl | jq -c '[.query_id, .faithfulness, [.details.claims[] | [.terms, .unsupported]]]'
echo "exit $?"
