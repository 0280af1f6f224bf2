#!/bin/sh
# eval-tune.sh: the fusion weights a store's own calibration chooses beside
# those ev-tune chooses from the judgements, on each test collection (make
# eval-tune).
# Usage: scripts/eval-tune.sh [--plan PLAN.yaml] [--data DIR] [--keep DIR [--reuse]]
#                             [--collections "cranfield med ..."] [BIN]
#
# Runs scripts/eval.sh (its stores and runs in --keep DIR; with --reuse,
# stores already there are searched again), then for each collection:
#   - the defaults: nDCG@10 of the hybrid of eval.sh's run (a store without
#     a calibration is fused with the defaults);
#   - the calibrated store: a copy of the store and its index (DIR/C/calibrated/),
#     calibrated by ev-embed-load --calibrate 200 (what ev-embed-load(1)
#     recommends; the calibration is off unless asked),
#     then the pipeline as a user runs it over the copy (scripts/ev-hybrid
#     --plan, which uses the store's calibration) and nDCG@10 of its hybrid;
#   - the tuned plan: ev-tune --qrels with the collection's queries and
#     judgements (--plan, --folds 5, --seed 1; the plan it writes is
#     DIR/C/tuned.yaml, its account DIR/C/tuned.txt): its 5-fold
#     cross-validated nDCG@10 beside the defaults' on the same queries, how
#     many folds chose the plan it writes and what the others chose.
# Prints one table: what the calibration chose (the feedback lane's weight W
# beside the text lane's 1, as its share of the two, W / (1 + W), and the
# adaptive rule; with its nDCG@10 on the pseudo-queries, cross-validated,
# beside the defaults' there), what ev-tune chose (the fusion, with the feedback lane's
# share of the two lanes' weight, and the text lane's settings where they
# are not the plan's), nDCG@10 of the defaults, the calibrated store and the
# tuned plan (cross-validated; beside it the defaults' figure in ev-tune,
# on the same queries), and the seconds of the calibration and of ev-tune;
# then the means over the collections, and what each fold of ev-tune chose
# where it was not the plan written.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
prog=eval-tune.sh
collections="cranfield med cacm npl time cf aila"
# the pseudo-queries of the calibration: what ev-embed-load(1) recommends
# (its own default, 0, calibrates nothing)
calibrate=200
. "$top/scripts/eval-common.sh"

# nDCG@10 of a run file, as ev-eval judges it.
ndcg() {
	ev-eval --qrels "$1" "$2" | sed 's/.*"ndcg@10":\([0-9.]*\).*/\1/'
}

# A YAML file as ev-tune writes it (and samples/plan.yaml: mappings by
# indentation, comments after a value), as "dotted.key<TAB>value" lines.
flat_yaml() {
	awk '/^[ ]*#/ || !/:/ { next }
	{
		line = $0; sub(/[ \t]+#.*$/, "", line)
		ind = match(line, /[^ ]/) - 1; d = int(ind / 2)
		key = substr(line, ind + 1); val = key
		sub(/:.*$/, "", key); sub(/^[^:]*:[ ]*/, "", val); gsub(/"/, "", val)
		path[d] = key; p = path[0]
		for (i = 1; i <= d; i++) p = p "." path[i]
		if (val != "") print p "\t" val
	}' "$1"
}

# What a tuned plan chose ($1), told against the plan it started from ($2):
# the fusion, with the feedback lane's share of the two lanes' weight, and
# the text lane's settings that are not the plan's.
describe_tuned() {
	{ flat_yaml "$2" | sed 's/^/plan./'; flat_yaml "$1" | sed 's/^/tuned./'; } | awk -F'\t' '
	{ v[$1] = $2 }
	function num(k) { return v[k] + 0 }
	END {
		t = num("tuned.fusion.weights.text"); f = num("tuned.fusion.weights.vector_feedback")
		m = v["tuned.fusion.method"]; n = v["tuned.fusion.normalization"]
		if (f == 0) fus = "text alone"
		else if (t == 0) fus = "feedback lane alone"
		else {
			fus = (m == "rrf" ? "rrf k " num("tuned.fusion.rrf_k") : m " " n)
			fus = fus sprintf(", share %.2g", f / (t + f))
		}
		split("proximity feedback feedback_terms feedback_weight weights.title", ks, " ")
		split("prox fb terms fbw title", names, " ")
		txt = ""
		for (i = 1; i <= 5; i++) {
			k = "lanes.text." ks[i]
			if (i > 1 && i < 5 && num("tuned.lanes.text.feedback") == 0 && ks[i] != "feedback")
				continue	# no terms nor share of a feedback that is off
			if (("tuned." k) in v && num("tuned." k) != num("plan." k))
				txt = txt (txt == "" ? "" : " ") names[i] " " num("tuned." k)
		}
		print fus (txt == "" ? "" : "; " txt)
	}'
}

# What the store's calibration chose (its meta row fusion.calibration), as
# "W (share S), ADAPT" ("defaults kept" when the choice did not beat them
# on held-out pseudo-queries, as ev-embed-load(1) keeps them then),
# and nDCG@10 on its pseudo-queries: the choice's, cross-validated, and the
# defaults'.
describe_calibration() {
	sqlite3 -readonly "$1" "SELECT value FROM meta WHERE key = 'fusion.calibration'" |
		jq -r '(.weights.vector_feedback) as $w |
			(if .["ndcg@10"].cross_validated <= .["ndcg@10"].defaults then " (defaults kept)"
			 else "" end) as $d |
			"\($w) (share \(if $w == 0 then 0 else ($w / (1 + $w) * 100 | round / 100) end)), \(.adapt)\($d);" +
			" pseudo \(.["ndcg@10"].cross_validated)/\(.["ndcg@10"].defaults)"'
}

start=$(date +%s)
"$top/scripts/eval.sh" --plan "$plan" --data "$data" --keep "$work" ${reuse:+--reuse} \
	--collections "$collections" "$bin" >"$work/tune-eval.txt" 2>"$work/tune-eval.err"
echo "$prog: scripts/eval.sh took $(($(date +%s) - start)) s" >&2

results=$work/tune.tsv
: >"$results"
for c in $collections; do
	printf '%s: ' "$c" >&2
	d=$(coldir "$c") w=$work/$c
	defaults=$(ndcg "$d/qrels.tsv" "$w/run/fused.jsonl")

	# A copy of the store and its index, calibrated (calibration writes into the store).
	cal=$w/calibrated
	rm -rf "$cal"
	mkdir -p "$cal"
	cp -p "$w"/store.db* "$w/kb.faiss" "$cal/"
	t0=$(date +%s)
	ev-embed-load --db "$cal/store.db" --index "$cal/kb.faiss" --calibrate "$calibrate" \
		</dev/null 2>"$cal/calibrate.txt"
	cal_s=$(($(date +%s) - t0))
	chosen=$(describe_calibration "$cal/store.db")
	[ -n "$chosen" ] || chosen="none (no calibration made)"
	"$top/scripts/ev-hybrid" --db "$cal/store.db" --index "$cal/kb.faiss" --plan "$plan" \
		-f "$d/queries.jsonl" --keep "$cal/run" >/dev/null
	calibrated=$(ndcg "$d/qrels.tsv" "$cal/run/fused.jsonl")
	printf 'calibrated in %s s; ' "$cal_s" >&2

	# The plan ev-tune fits to the judgements, cross-validated.
	t0=$(date +%s)
	ev-tune --db "$w/store.db" --index "$w/kb.faiss" --plan "$plan" --qrels "$d/qrels.tsv" \
		--folds 5 --seed 1 -o "$w/tuned.yaml" "$d/queries.jsonl" 2>"$w/tuned.txt"
	tune_s=$(($(date +%s) - t0))
	cv=$(sed -n 's/.*ndcg@10 \([0-9.]*\) cross-validated, against \([0-9.]*\) .*/\1 \2/p' "$w/tuned.txt")
	agree=$(sed -n 's/.*was the choice of \([0-9]*\) of \([0-9]*\) folds.*/\1\/\2/p' "$w/tuned.txt")
	if grep -q 'the best on all queries: the defaults' "$w/tuned.txt"; then
		tuned="the defaults"
	else
		tuned=$(describe_tuned "$w/tuned.yaml" "$plan")
	fi
	echo "tuned in $tune_s s" >&2
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$c" "$chosen" "$tuned" "$agree" \
		"$defaults" "$calibrated" "${cv% *}" "${cv#* }" "$cal_s" "$tune_s" >>"$results"
done

awk -F'\t' '
function pct(x, y) { return y > 0 ? sprintf("%+.1f%%", 100 * (x / y - 1)) : "n/a" }
BEGIN {
	printf "%-10s | %-62s | %-66s | %5s | %8s | %13s | %13s | %15s | %5s | %5s\n", "collection",
		"calibration: W (share), adapt; pseudo cv/dflt", "ev-tune: fusion (feedback share); text",
		"folds", "defaults", "calibrated", "tuned (cv)", "defaults (tune)", "cal s", "tune s"
}
{
	printf "%-10s | %-62s | %-66s | %5s | %8.4f | %13s | %13s | %15.4f | %5d | %5d\n", $1, $2, $3, $4,
		$5, sprintf("%.4f %s", $6, pct($6, $5)), sprintf("%.4f %s", $7, pct($7, $8)), $8, $9, $10
	n++; d += $5; k += $6; t += $7; td += $8; gk += $6 / $5 - 1; gt += $7 / $8 - 1
}
END {
	if (n) printf "%-10s | %-62s | %-66s | %5s | %8.4f | %13s | %13s | %15.4f |\n", "mean", "", "", "",
		d / n, sprintf("%.4f %+.1f%%", k / n, 100 * gk / n), sprintf("%.4f %+.1f%%", t / n, 100 * gt / n), td / n
}' "$results"
echo
echo "What the folds of ev-tune chose where it was not the plan it wrote (DIR/C/tuned.txt):"
for c in $collections; do
	sed -n "s/^ev-tune: fold /  $c: fold /p" "$work/$c/tuned.txt"
done
echo "$prog: $(($(date +%s) - start)) s in all" >&2
