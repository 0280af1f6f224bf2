# Gates that every item meets: exit 0, "passed": true.  A bound equal to the
# score passes (overall 1 >= 1).
ev-score --min-overall 1 --min-coverage 1 --config /dev/null <<'EOF2' | jq -c '{query_id, overall, passed}'
{"query_id":"good","query":"turbulent flow","answer":"Turbulent flow causes drag.","citations":["Drag is caused by turbulent flow."]}
EOF2
cat >gates.yaml <<'EOF2'
gates:
  min_overall: 0.99
EOF2
echo '{"query_id":"g2","query":"flow","answer":"Flow.","citations":["flow"]}' | ev-score --config gates.yaml | jq -c '{query_id, passed}'
