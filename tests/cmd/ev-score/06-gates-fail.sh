# Gates: every record is written, then exit 3; each failing item is named on
# stderr with the failing axes, and "passed" is in each record.
ev-score --min-overall 0.7 --min-faithfulness 0.5 --max-redundancy 0.5 >out <<'EOF2'
{"query_id":"good","query":"turbulent flow","answer":"Turbulent flow causes drag.","citations":["Drag is caused by turbulent flow."]}
{"query_id":"bad","query":"turbulent flow","answer":"The moon is made of cheese.","citations":["Drag is caused by turbulent flow.","Drag is caused by turbulent flow."]}
{"query_id":"ok","query":"turbulent flow","answer":"Turbulent flow melts cheese.","citations":["Turbulent flow."]}
EOF2
st=$?
jq -c '{query_id, overall, passed}' out
exit $st
