# The EXAMPLES of ev-score(1), run as written: the commands after "$ " are
# run in turn from the page's first literal block (cat's operand is made from
# the line that follows it).
page="$CASEDIR/../../../man/ev-score.1"
sed -n '/^Score one answer:/,/^\.Ed/p' "$page" | sed -n '4p' >answer.jsonl
sed -n '/^Score one answer:/,/^\.Ed/p' "$page" | sed -n '6p' >want
ev-score answer.jsonl | jq -c '{query_id, faithfulness, coverage, overall}' >got
cmp want got && cat got
