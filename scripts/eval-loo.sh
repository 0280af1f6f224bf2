#!/bin/sh
# eval-loo.sh: the defaults chosen again leave-one-collection-out (make eval-loo).
# Usage: scripts/eval-loo.sh [--plan PLAN.yaml] [--data DIR] [--keep DIR [--reuse]]
#                            [--collections "cranfield med ..."] [BIN]
#
# Runs scripts/eval.sh and scripts/eval-ablation.sh (their stores and runs in
# --keep DIR; with --reuse, stores already there are searched again), then,
# for each collection held out, chooses again on the other collections, by
# the largest mean nDCG@10 over them:
#   - the text lane's additions over plain BM25, on or off (the runs of
#     eval-ablation.sh: feedback, proximity, title weights, k1 and b,
#     request words, long queries, documents scored as a whole), among the
#     runs measured: the default
#     and each one turned off (typo repair is left out: it was chosen on
#     queries with typos, which these collections do not have);
#   - the fusion: the feedback lane's weight (0, 0.25, 0.5, 0.75, 1, 1.25, 1.5),
#     with the per-query agreement rule or without it, over the lanes
#     eval.sh kept;
# and scores the held-out collection with what was chosen; then the values
# of the text lane's constants (the scale of BM25's k1 and the spread that
# sets b, title weight, proximity,
# feedback depth, terms, weight and focus, the long-query length, the share
# of a hit's document as a whole), one at a
# time, by scripts/eval-values.sh.  Prints, for each
# collection, nDCG@10 of the text lane and of the hybrid with the defaults
# and with the leave-one-out choice, what was chosen and the seconds its
# runs took (eval.sh's, eval-ablation.sh's and the fusion grid's), and flags
# a held-out loss over 1 % (a constant that does not carry).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
prog=eval-loo.sh
collections="cranfield med cacm npl time cf aila"
. "$top/scripts/eval-common.sh"

# The two scripts below share one directory: --keep DIR, else the scratch one.
run() {
	"$top/scripts/$1" --plan "$plan" --data "$data" --keep "$work" ${reuse:+--reuse} \
		--collections "$collections" "$bin"
}
start=$(date +%s)
run eval.sh >"$work/loo-eval.txt" 2>"$work/loo-eval.err"
run eval-ablation.sh >"$work/loo-ablation.txt"
run eval-values.sh >"$work/loo-values.txt" 2>/dev/null
echo "eval-loo.sh: the runs took $(($(date +%s) - start)) s" >&2

# The fusion grid over each collection's kept lanes: "c adapt w ndcg".
grid=$work/loo-fusion.tsv
: >"$grid"
times=$work/loo-times.tsv
# eval.sh's seconds for each collection ("NAME: ... N s", messages between)
awk '/^[a-z0-9]+: / { c = $1; sub(/:$/, "", c) } /[0-9]+ s$/ { print c "\t" $(NF - 1) }' \
	"$work/loo-eval.err" >"$times"
awk -F'\t' '{ print $1 "\t" $4 }' "$work/ablation.tsv" >>"$times"
for c in $collections; do
	d=$(coldir "$c")
	r=$work/$c/run
	t0=$(date +%s)
	for adapt in agreement none; do
		for w in 0 0.25 0.5 0.75 1 1.25 1.5; do
			# Every weight is given: a lane --weight leaves out weighs 1,
			# and the pipeline's plain vector lane weighs 0 (ev-fuse(1)).
			n=$(ev-fuse --config "$plan" --adapt "$adapt" --weight text=1 --weight vector=0 \
				--weight vector_feedback="$w" \
				"$r/text.jsonl" "$r/vector.jsonl" "$r/vector_feedback.jsonl" 2>/dev/null |
				ev-eval --qrels "$d/qrels.tsv" | sed 's/.*"ndcg@10":\([0-9.]*\).*/\1/')
			printf '%s\t%s,%s\t%s\n' "$c" "$adapt" "$w" "$n" >>"$grid"
		done
	done
	printf '%s\t%s\n' "$c" "$(($(date +%s) - t0))" >>"$times"
done

# Leave one out: a choice (a column of a table "c choice ndcg") is made on
# the other collections and scored on the held-out one.
awk -F'\t' -v cols="$collections" -v plan_fusion="none,1.25" '
FILENAME ~ /loo-times.tsv$/ { secs[$1] += $2; next }
FILENAME ~ /ablation.tsv$/ { text[$1, $2] = $3; if ($2 != "-fuzzy") tchoice[$2] = 1; next }
{ fus[$1, $2] = $3; fchoice[$2] = 1 }
# The choice of the largest mean over the collections but out; on a tie,
# the shipped one (dflt), else the first by name.
function best(table, choices, out, dflt,   ch, i, s, b, bs, k) {
	bs = -1
	for (ch in choices) {
		if (ch == "bm25") continue
		s = 0; k = 0
		for (i = 1; i <= n; i++) if (c[i] != out) { s += table[c[i], ch]; k++ }
		s = sprintf("%.6f", s / k) + 0
		if (s > bs || (s == bs && b != dflt && (ch == dflt || ch < b))) { bs = s; b = ch }
	}
	return b
}
END {
	n = split(cols, c, " ")
	printf "%-10s %9s %9s %-10s %9s %9s %-14s %6s\n", "held out", "text", "text LOO", "chose", "hybrid", "hyb. LOO", "chose", "time"
	for (i = 1; i <= n; i++) {
		bt = best(text, tchoice, c[i], "default"); bf = best(fus, fchoice, c[i], plan_fusion)
		td = text[c[i], "default"]; tl = text[c[i], bt]
		hd = fus[c[i], plan_fusion]; hl = fus[c[i], bf]
		flag = (tl < 0.99 * td || hl < 0.99 * hd) ? "  loses over 1 %" : ""
		printf "%-10s %9.4f %9.4f %-10s %9.4f %9.4f %-14s %5ds%s\n", c[i], td, tl, bt, hd, hl, bf, secs[c[i]], flag
	}
}' "$times" "$work/ablation.tsv" "$grid"
echo
echo "The text lane's constants, value by value (scripts/eval-values.sh):"
cat "$work/loo-values.txt"
echo "eval-loo.sh: $(($(date +%s) - start)) s in all" >&2
