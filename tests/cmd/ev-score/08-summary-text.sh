# --summary: mean, p10, p50, p90 (linear between ranks) of each axis and the
# gate failures, on stderr; stdout keeps only score records.  Faithfulness of
# the four items: 1, 0, 0.5, 0.5 -> mean 0.5, p10 0.15, p50 0.5, p90 0.85.
c='"citations":["Drag is caused by turbulent flow."]'
ev-score --summary --min-faithfulness 0.5 <<EOF2 2>&1 >/dev/null
{"query_id":"q1","query":"turbulent flow","answer":"Turbulent flows cause drag.",$c}
{"query_id":"q2","query":"turbulent flow","answer":"The moon is made of cheese.",$c}
{"query_id":"q3","query":"turbulent flow","answer":"Turbulent flow causes drag. The moon is cheese.",$c}
{"query_id":"q4","query":"turbulent flow","answer":"Turbulent flow melts cheese.",$c}
EOF2
echo "status $?"
