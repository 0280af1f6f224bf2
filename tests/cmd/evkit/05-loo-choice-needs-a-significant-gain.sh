# scripts/loo-choose.awk, the leave-one-out choice of make eval-loo: with a
# collection held out, the run of the largest mean over the others replaces
# the shipped one only when its gain is significant (paired randomisation,
# p < 0.05).  Three collections of 20 queries; run "big" beats "plan" by 0.1
# on every query of a and b, "small" by 0.002 on the mean of queries that
# go up and down by 0.1, "one" by 0.4 on a single query of a; "tie" equals
# "plan".  The p of a gain the sign flips cannot reach is 1 / (iterations +
# 1), and that of a single query's 1, under any awk's random numbers; the
# others depend on them, so only their side of 0.05 is printed.
choose=$CASEDIR/../../../scripts/loo-choose.awk
awk 'BEGIN {
	for (q = 1; q <= 20; q++) {
		up = q % 2 ? 0.1 : -0.1
		for (i = 1; i <= 3; i++) {
			c = substr("abc", i, 1)
			printf "%s\tplan\t%d\t0.5\n", c, q
			printf "%s\ttie\t%d\t0.5\n", c, q
			printf "%s\tsmall\t%d\t%.4f\n", c, q, 0.5 + up + (q == 1 ? 0.04 : 0)
			printf "%s\tbig\t%d\t%.4f\n", c, q, c == "c" ? 0.3 : 0.6
			printf "%s\tone\t%d\t%.4f\n", c, q, c == "a" && q == 1 ? 0.9 : 0.5
		}
	}
}' >pq.tsv
echo "plan, tie, small:"
awk -F'\t' -v cols="a b c" -v shipped=plan -v runs="tie small" -f "$choose" pq.tsv | cut -f 1-4
echo "plan, tie, small, big, one (1000 iterations):"
awk -F'\t' -v cols="a b c" -v shipped=plan -v runs="tie small big one" -v iters=1000 -f "$choose" pq.tsv |
	awk -F'\t' -v OFS='\t' '$5 != "0.0010" && $5 != "1.0000" { $5 = $5 < 0.05 ? "p < 0.05" : "p >= 0.05" } { print }'
echo "a query missing:"
grep -v '^b	big	7	' pq.tsv >pq-missing.tsv
awk -F'\t' -v cols="a b c" -v shipped=plan -v runs="big" -f "$choose" pq-missing.tsv 2>&1
echo "status $?"
