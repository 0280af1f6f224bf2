# Faithfulness, hand-computed.  The one citation has the terms drag, caus,
# turbul, flow ("is", "by" are stop words).  q1: every content term of the
# answer (turbul, flow, caus, drag; "causes" matches "caused" by its stem) is
# cited -> 1.  q2: moon, made, chees are not -> 0.  q3: two claims, 1 and 0 ->
# 0.5.  q4: one claim, 2 of 4 terms (turbul, flow; not melt, chees) -> 0.5.
# Coverage is 1 throughout (turbul, flow); one citation: redundancy 0; so
# overall = 0.4 f + 0.4 + 0.2.
c='"citations":[{"id":"c1","text":"Drag is caused by turbulent flow."}]'
ev-score <<EOF2
{"query_id":"q1","query":"turbulent flow","answer":"Turbulent flows cause drag.",$c}
{"query_id":"q2","query":"turbulent flow","answer":"The moon is made of cheese.",$c}
{"query_id":"q3","query":"turbulent flow","answer":"Turbulent flow causes drag. The moon is cheese.",$c}
{"query_id":"q4","query":"turbulent flow","answer":"Turbulent flow melts cheese.",$c}
EOF2
