# Coverage, hand-computed: the share of the query's distinct content terms
# found in any citation.  full: turbul, flow -> 1.  partial: "What is
# turbulent flow in pipes?" -> turbul, flow, pipe; pipe is not cited -> 2/3.
# none: moon, chees -> 0.  Repeats count once: "flow flows pipe" -> flow,
# pipe -> 1/2.  Only the scores are shown (jq).
c='"answer":"Drag.","citations":[{"text":"Drag is caused"},{"text":"by turbulent flow."}]'
ev-score <<EOF2 | jq -c '{query_id, coverage, uncovered: .details.uncovered, query_terms: .details.query_terms}'
{"query_id":"full","query":"turbulent flow",$c}
{"query_id":"partial","query":"What is turbulent flow in pipes?",$c}
{"query_id":"none","query":"moon cheese",$c}
{"query_id":"repeats","query":"flow flows pipe",$c}
EOF2
