# Coverage, hand-computed: the share of the query's distinct content terms
# found across the cited passages.  full: turbul, flow -> 1.  partial: "What
# is turbulent flow in pipes?" -> turbul, flow, pipe; pipe is not cited ->
# 2/3.  none: moon, chees -> 0.  Repeats count once: "flow flows pipe" ->
# flow, pipe -> 1/2.  unused: the answer "Drag." draws only on the first
# citation, but coverage counts every citation: turbulent and flow are cited
# (by the second) -> 1; with --coverage used only the citations the answer
# uses (the first) count -> 0, and the others are as before.  Only the scores
# are shown (jq).
c='"answer":"Turbulent flow causes drag.","citations":[{"text":"Drag is caused"},{"text":"by turbulent flow."}]'
cat >in.jsonl <<EOF2
{"query_id":"full","query":"turbulent flow",$c}
{"query_id":"partial","query":"What is turbulent flow in pipes?",$c}
{"query_id":"none","query":"moon cheese",$c}
{"query_id":"repeats","query":"flow flows pipe",$c}
{"query_id":"unused","query":"turbulent flow","answer":"Drag.","citations":[{"text":"Drag is caused"},{"text":"by turbulent flow."}]}
EOF2
for how in cited used; do
	ev-score --coverage $how in.jsonl |
	    jq -c '{query_id, coverage, uncovered: .details.uncovered, query_terms: .details.query_terms}'
done
