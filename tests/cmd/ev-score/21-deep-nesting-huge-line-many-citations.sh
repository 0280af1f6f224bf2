# Deep nesting is refused (exit 2), not a crash; a 4 MB answer is scored as
# usual; more than 1000 citations is refused (the pairs are quadratic).
awk 'BEGIN { for (i = 0; i < 100000; i++) printf "["; print "" }' | ev-score 2>&1
echo "status $?"
awk 'BEGIN { printf "{\"query_id\":\"big\",\"query\":\"alpha\",\"answer\":\"";
	for (i = 0; i < 65536; i++) printf "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda. ";
	print "\",\"citations\":[\"alpha beta\"]}" }' | ev-score >out
echo "status $?"
jq -c '{query_id, faithfulness, coverage, claims: (.details.claims | length)}' out
awk 'BEGIN { printf "{\"query\":\"q\",\"answer\":\"a\",\"citations\":[\"x\"";
	for (i = 0; i < 1000; i++) printf ",\"x\"";
	print "]}" }' | ev-score 2>&1
echo "status $?"
