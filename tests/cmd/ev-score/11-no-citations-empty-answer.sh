# No citations: faithfulness and coverage 0 with a warning naming the line;
# an empty answer: faithfulness 0 (coverage counts the citations, which hold
# the query's word: 1); nothing divides by zero.  A query_id missing from
# the input is the line number.
printf '%s\n' '{"query_id":"q1","query":"flow","answer":"Flow.","citations":[]}' \
    '{"query":"flow","answer":"","citations":["flow"]}' \
    '{"query_id":"q3","query":"is it?","answer":"The.","citations":["flow"]}' |
    ev-score 2>err | jq -c '{query_id, faithfulness, coverage, redundancy, overall, warnings: .details.warnings}'
cat err
