# --judge CMD: each claim with content terms, and its best passage, goes to
# CMD as one JSON line; its one-line verdict replaces the keyword support.
# Keyword overlap cannot see negation ("not" is a stop word): both claims
# have support 1 without a judge; the toy judge (judge-not) says 0 for the
# negated one -> faithfulness 0.5.  A judge that answers nonsense, stops
# early, never answers or answers a line too many is an error (exit 1)
# naming the claim.
r='{"query_id":"q1","query":"valve open","answer":"The valve is open. The valve is not open.","citations":[{"id":"c","text":"The valve is open."}]}'
echo "$r" | ev-score | jq -c '{faithfulness}'
echo "$r" | ev-score --judge "sh $CASEDIR/judge-not" --log log | jq -c '{faithfulness, claims: [.details.claims[] | {support, keyword_support, judged}]}'
jq -c '.counts' log
echo "$r" | ev-score --judge 'cat' --judge-timeout 5 2>&1 >/dev/null | sed 's/claim 1 with .*/claim 1 with .../'
echo "status $?"
echo "$r" | ev-score --judge 'read x; echo 1' 2>&1 >/dev/null
echo "$r" | ev-score --judge 'cat >/dev/null; echo 1' --judge-timeout 0.1 2>&1 >/dev/null
echo "$r" | ev-score --judge 'read x; echo 0.5; read x; echo 7' 2>&1 >/dev/null
# two lines for one claim: the second would be the next claim's verdict
echo "$r" | ev-score --judge 'while read -r x; do printf "1\n0\n"; done' 2>&1 >/dev/null
echo "status $?"
echo "$r" | ev-score --judge '' 2>&1 >/dev/null
echo "status $?"
