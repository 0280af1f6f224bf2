# Coverage, hand-computed: the share of the query's distinct content terms
# found in a citation the answer uses (one holding a content term of the
# answer).  The answer uses both citations.  full: turbul, flow -> 1.
# partial: "What is turbulent flow in pipes?" -> turbul, flow, pipe; pipe is
# not cited -> 2/3.  none: moon, chees -> 0.  Repeats count once: "flow flows
# pipe" -> flow, pipe -> 1/2.  unused: the answer "Drag." uses only the first
# citation, so turbulent and flow, cited only by the second, are not covered
# -> 0.  Only the scores are shown (jq).
c='"answer":"Turbulent flow causes drag.","citations":[{"text":"Drag is caused"},{"text":"by turbulent flow."}]'
ev-score <<EOF2 | jq -c '{query_id, coverage, uncovered: .details.uncovered, query_terms: .details.query_terms}'
{"query_id":"full","query":"turbulent flow",$c}
{"query_id":"partial","query":"What is turbulent flow in pipes?",$c}
{"query_id":"none","query":"moon cheese",$c}
{"query_id":"repeats","query":"flow flows pipe",$c}
{"query_id":"unused","query":"turbulent flow","answer":"Drag.","citations":[{"text":"Drag is caused"},{"text":"by turbulent flow."}]}
EOF2
