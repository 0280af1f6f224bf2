# loo-choose.awk: a choice among runs made again with each collection held
# out, as scripts/eval-loo.sh and scripts/eval-values.sh make it.
# Usage: awk -F'\t' -v cols="C1 C2 ..." -v shipped=RUN -v runs="RUN RUN2 ..." \
#            [-v iters=N] [-v alpha=P] -f scripts/loo-choose.awk PER-QUERY.tsv
#
# PER-QUERY.tsv holds a line per judged query and run: collection, run,
# query id, nDCG@10 (lines of runs not in `runs` are ignored).  For each
# collection of `cols` held out, in that order, the run of the largest mean
# nDCG@10 over the other collections (a collection's figure being the mean
# over its queries, each collection counting once) is the candidate; a tie
# keeps `shipped`, else the first in `runs`.  The candidate is chosen only
# when its gain over `shipped` on those collections is significant: a paired
# randomisation test (each query's difference of the two runs keeping or
# flipping its sign at random, `iters` times, default 10000, with a fixed
# seed; the statistic the same mean over the collections) gives it a
# two-sided p below `alpha` (default 0.05).  Else `shipped` is chosen: a
# difference the queries cannot tell from noise moves no constant.
# Writes a line per collection held out: the collection, the run chosen,
# the candidate, its mean gain over `shipped` on the others, and p ("-" when
# the candidate is `shipped`).  A run missing a query of a collection that
# `shipped` has is an error (exit 2).

BEGIN {
	if (iters == "")
		iters = 10000
	if (alpha == "")
		alpha = 0.05
	nr = split(runs, run, " ")
	for (i = 1; i <= nr; i++)
		want[run[i]] = 1
	want[shipped] = 1
}

{
	if (!($2 in want))
		next
	nd[$1, $2, $3] = $4
	if ($2 == shipped && !(($1, $3) in seen)) {
		seen[$1, $3] = 1
		nq[$1]++
		qid[$1, nq[$1]] = $3
	}
}

# The mean over the collections but `out` of the mean of r's nDCG@10 less
# shipped's over each one's queries, each query's difference times its sign
# (sign[c, i], 1 unless flip is set).
function gain(r, out, flip,   i, k, m, c, s, t) {
	t = 0; m = 0
	for (k = 1; k <= ncol; k++) {
		c = col[k]
		if (c == out)
			continue
		s = 0
		for (i = 1; i <= nq[c]; i++)
			s += (flip && rand() < 0.5 ? -1 : 1) * (nd[c, r, qid[c, i]] - nd[c, shipped, qid[c, i]])
		t += s / nq[c]
		m++
	}
	return m ? t / m : 0
}

END {
	ncol = split(cols, col, " ")
	for (k = 1; k <= ncol; k++) {
		if (!nq[col[k]]) {
			printf "loo-choose.awk: no queries of %s in run %s\n", col[k], shipped > "/dev/stderr"
			exit 2
		}
		for (j = 1; j <= nr; j++)
			for (i = 1; i <= nq[col[k]]; i++)
				if (!((col[k], run[j], qid[col[k], i]) in nd)) {
					printf "loo-choose.awk: run %s has no figure for query %s of %s\n", \
					    run[j], qid[col[k], i], col[k] > "/dev/stderr"
					exit 2
				}
	}
	srand(1)
	for (k = 1; k <= ncol; k++) {
		out = col[k]
		best = shipped; bg = 0; exact = 0
		for (j = 1; j <= nr; j++) {
			g = gain(run[j], out, 0)
			if (sprintf("%.6f", g) + 0 > bg) { bg = sprintf("%.6f", g) + 0; exact = g; best = run[j] }
		}
		if (best == shipped) {
			printf "%s\t%s\t%s\t%+.4f\t-\n", out, shipped, best, 0
			continue
		}
		ge = 0
		for (it = 0; it < iters; it++) {
			g = gain(best, out, 1)
			if ((g < 0 ? -g : g) >= exact - 1e-12)
				ge++
		}
		p = (ge + 1) / (iters + 1)
		printf "%s\t%s\t%s\t%+.4f\t%.4f\n", out, p < alpha ? best : shipped, best, bg, p
	}
}
