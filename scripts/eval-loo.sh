#!/bin/sh
# eval-loo.sh: the defaults chosen again leave-one-collection-out (make eval-loo).
# Usage: scripts/eval-loo.sh [--plan PLAN.yaml] [--data DIR] [--keep DIR [--reuse]]
#                            [--collections "cranfield med ..."] [BIN]
#
# Runs scripts/eval.sh and scripts/eval-ablation.sh (their stores and runs in
# --keep DIR; with --reuse, stores already there are searched again), then,
# for each collection held out, chooses again on the other collections as
# scripts/loo-choose.awk chooses (the largest mean nDCG@10 over them, when
# its gain over the shipped choice is significant; else the shipped one):
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

# The text lane's additions, on or off: each ablation run's queries.
perquery=$work/loo-ablation-pq.tsv
: >"$perquery"
additions=$(awk -F'\t' '$2 != "bm25" && $2 != "-fuzzy" { print $2 }' "$work/ablation.tsv" | sort -u | tr '\n' ' ')
for c in $collections; do
	for a in $additions; do
		judge "$c" "$a" "$work/$c/ablation$a.jsonl" >/dev/null
	done
done
choose() {
	awk -F'\t' -v cols="$collections" -v shipped="$1" -v runs="$2" -f "$top/scripts/loo-choose.awk" "$perquery"
}
choose default "$additions" >"$work/loo-text-choices.tsv"

# The fusion grid over each collection's kept lanes: "c adapt,w ndcg".
grid=$work/loo-fusion.tsv
perquery=$work/loo-fusion-pq.tsv
: >"$grid"
: >"$perquery"
times=$work/loo-times.tsv
# eval.sh's seconds for each collection ("NAME: ... N s", messages between)
awk '/^[a-z0-9]+: / { c = $1; sub(/:$/, "", c) } /[0-9]+ s$/ { print c "\t" $(NF - 1) }' \
	"$work/loo-eval.err" >"$times"
awk -F'\t' '{ print $1 "\t" $4 }' "$work/ablation.tsv" >>"$times"
for c in $collections; do
	r=$work/$c/run
	t0=$(date +%s)
	for adapt in agreement none; do
		for w in 0 0.25 0.5 0.75 1 1.25 1.5; do
			# Every weight is given: a lane --weight leaves out weighs 1,
			# and the pipeline's plain vector lane weighs 0 (ev-fuse(1)).
			ev-fuse --config "$plan" --adapt "$adapt" --weight text=1 --weight vector=0 \
				--weight vector_feedback="$w" \
				"$r/text.jsonl" "$r/vector.jsonl" "$r/vector_feedback.jsonl" 2>/dev/null >"$r/grid.jsonl"
			printf '%s\t%s,%s\t%s\n' "$c" "$adapt" "$w" "$(judge "$c" "$adapt,$w" "$r/grid.jsonl")" >>"$grid"
		done
	done
	printf '%s\t%s\n' "$c" "$(($(date +%s) - t0))" >>"$times"
done

choose none,1.25 "$(cut -f 2 "$grid" | awk '!seen[$0]++')" >"$work/loo-fusion-choices.tsv"

# Each held-out collection with what the others chose for it (the choice
# files' lines: held out, chosen, candidate, gain, p).
awk -F'\t' -v cols="$collections" -v plan_fusion="none,1.25" '
FILENAME ~ /loo-times.tsv$/ { secs[$1] += $2; next }
FILENAME ~ /ablation.tsv$/ { text[$1, $2] = $3; next }
FILENAME ~ /loo-fusion.tsv$/ { fus[$1, $2] = $3; next }
FILENAME ~ /loo-text-choices.tsv$/ { bt[$1] = $2; note($0); next }
{ bf[$1] = $2; note($0) }
# A candidate the others preferred that was not chosen, for the note below.
function note(line,   f) {
	split(line, f, "\t")
	if (f[2] != f[3])
		noise = noise sprintf("  %s held out: %s (%s over the others, p %s)\n", f[1], f[3], f[4], f[5])
}
END {
	n = split(cols, c, " ")
	printf "%-10s %9s %9s %-10s %9s %9s %-14s %6s\n", "held out", "text", "text LOO", "chose", "hybrid", "hyb. LOO", "chose", "time"
	for (i = 1; i <= n; i++) {
		td = text[c[i], "default"]; tl = text[c[i], bt[c[i]]]
		hd = fus[c[i], plan_fusion]; hl = fus[c[i], bf[c[i]]]
		flag = (tl < 0.99 * td || hl < 0.99 * hd) ? "  loses over 1 %" : ""
		printf "%-10s %9.4f %9.4f %-10s %9.4f %9.4f %-14s %5ds%s\n", c[i], td, tl, bt[c[i]], hd, hl, bf[c[i]], secs[c[i]], flag
	}
	if (noise != "")
		printf "Best on the others but not chosen, the gain not significant (p >= 0.05):\n%s", noise
}' "$times" "$work/ablation.tsv" "$grid" "$work/loo-text-choices.tsv" "$work/loo-fusion-choices.tsv"
echo
echo "The text lane's constants, value by value (scripts/eval-values.sh):"
cat "$work/loo-values.txt"
echo "eval-loo.sh: $(($(date +%s) - start)) s in all" >&2
