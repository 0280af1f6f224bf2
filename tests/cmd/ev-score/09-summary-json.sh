# --summary=json: the summary is one last line on stdout, {"summary": {...}},
# after the score records (which is why it must be asked for).
c='"citations":["Drag is caused by turbulent flow."]'
ev-score --summary=json --min-faithfulness 0.5 <<EOF2 | tail -n 1
{"query_id":"q1","query":"turbulent flow","answer":"Turbulent flows cause drag.",$c}
{"query_id":"q2","query":"turbulent flow","answer":"The moon is made of cheese.",$c}
{"query_id":"q3","query":"turbulent flow","answer":"Turbulent flow causes drag. The moon is cheese.",$c}
{"query_id":"q4","query":"turbulent flow","answer":"Turbulent flow melts cheese.",$c}
EOF2
