#!/bin/sh
# eval-values.sh: the text lane's measured constants chosen again
# leave-one-collection-out, value by value (part of make eval-loo).
# Usage: scripts/eval-values.sh [--plan PLAN.yaml] [--data DIR] [--keep DIR [--reuse]]
#                               [--collections "cranfield med ..."] [BIN]
#
# Searches each collection's store in --keep DIR (as scripts/eval.sh --keep
# DIR left it; made with ev-ingest when absent) with the text lane of the plan
# ("plan"), then with one constant at a time set to each value of its grid
# below, the others as the plan has them.  For each collection held out and
# each constant, the value of the largest mean nDCG@10 over the other
# collections is chosen (a tie keeps the plan's), and the held-out
# collection's nDCG@10 with that value is printed beside the plan's: a
# constant whose choice loses more than 1 % on the collection held out does
# not carry, and is flagged.  Then each held-out collection is searched once
# with every choice made for it at once ("all chosen").  Writes
# DIR/values.tsv (collection, run, nDCG@10, seconds) and prints the tables;
# with --reuse, a collection whose runs DIR/values.tsv already holds is not
# searched again (delete its lines to measure it again).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
prog=eval-values.sh
collections="cranfield med cacm npl time cf aila"
. "$top/scripts/eval-common.sh"

# A constant, its option, and the values tried beside the plan's.
grid="k1-scale|--k1-scale|0.2 0.3
norm-spread|--norm-spread|0.2 0.4
title|--weight title=V --weight section_title=V|2.5 6
proximity|--proximity|0.1 0.4
feedback|--feedback|10 25
fb-terms|--feedback-terms|30 80
fb-weight|--feedback-weight|0.3 0.7
fb-focus|--feedback-focus|1 5
long-query|--long-query|32 128
doc-weight|--document-weight|0.5 1"

results=$work/values.tsv
if [ -n "$reuse" ] && [ -f "$results" ]; then
	grep -v '	all chosen	' "$results" >"$results.new" || :
	mv "$results.new" "$results"
else
	: >"$results"
fi

# search C NAME OPTS...: the text lane over C's queries with the plan and
# OPTS; its line in values.tsv.
search() {
	c=$1 name=$2
	shift 2
	d=$(coldir "$c")
	w=$work/$c
	start=$(date +%s)
	ev-search-text --db "$w/store.db" --config "$plan" "$@" "$d/queries.jsonl" \
		2>/dev/null >"$w/values.jsonl"
	n=$(ev-eval --qrels "$d/qrels.tsv" "$w/values.jsonl" | sed 's/.*"ndcg@10":\([0-9.]*\).*/\1/')
	printf '%s\t%s\t%s\t%s\n' "$c" "$name" "$n" "$(($(date +%s) - start))" >>"$results"
	echo "$c $name $n" >&2
}

# The options that set constant K to value V, as the grid spells them.
opts_of() {
	echo "$grid" | while IFS='|' read -r k o vs; do
		[ "$k" = "$1" ] || continue
		case $o in
		*V*) echo "$o" | sed "s/V/$2/g" ;;
		*) echo "$o $2" ;;
		esac
	done
}

for c in $collections; do
	w=$work/$c
	if grep -q "^$c	plan	" "$results"; then
		continue
	fi
	if [ ! -f "$w/store.db" ]; then
		mkdir -p "$w"
		ev-ingest --db "$w/store.db" "$(coldir "$c")/corpus.jsonl" >"$w/chunks.jsonl" 2>/dev/null
	fi
	search "$c" plan
	echo "$grid" | while IFS='|' read -r k o vs; do
		for v in $vs; do
			# shellcheck disable=SC2046 # the options are words
			search "$c" "$k=$v" $(opts_of "$k" "$v")
		done
	done
done

# Leave one out, constant by constant: "held-out constant choice" lines.
choices=$work/values-choices.tsv
awk -F'\t' -v cols="$collections" '
{ nd[$1, $2] = $3; if ($2 != "plan") { split($2, kv, "="); vals[kv[1]] = vals[kv[1]] " " kv[2] } }
END {
	n = split(cols, c, " ")
	for (k in vals) {
		nv = split(vals[k], v, " ")
		for (i = 1; i <= n; i++) {
			best = "plan"; bs = -1
			for (j = 0; j <= nv; j++) {
				run = j ? k "=" v[j] : "plan"
				s = 0; m = 0
				for (o = 1; o <= n; o++) if (o != i) { s += nd[c[o], run]; m++ }
				s = sprintf("%.6f", s / m) + 0
				if (s > bs) { bs = s; best = run }
			}
			print c[i] "\t" k "\t" best
		}
	}
}' "$results" | sort >"$choices"

# Each held-out collection with every choice made for it at once.
for c in $collections; do
	set --
	while IFS='	' read -r held k run; do
		[ "$held" = "$c" ] && [ "$run" != plan ] || continue
		# shellcheck disable=SC2046 # the options are words
		set -- "$@" $(opts_of "$k" "${run#*=}")
	done <"$choices"
	if [ $# -eq 0 ]; then
		awk -F'\t' -v c="$c" '$1 == c && $2 == "plan" { print c "\tall chosen\t" $3 "\t0" }' \
			"$results" >>"$results"
	else
		search "$c" "all chosen" "$@"
	fi
done

awk -F'\t' -v cols="$collections" -v grid="$grid" '
FILENAME ~ /choices/ { ch[$1, $2] = $3; next }
{ nd[$1, $2] = $3; secs[$1] += $4 }
END {
	n = split(cols, c, " ")
	nk = split(grid, g, "\n")
	print "The value each collection held out gets from the others (plan: the plan'"'"'s value kept),"
	print "and its nDCG@10 held out, less the plan'"'"'s (* : loses more than 1 %):"
	printf "%-11s", "constant"
	for (i = 1; i <= n; i++) printf " %16s", c[i]
	printf "\n"
	for (j = 1; j <= nk; j++) {
		split(g[j], f, "|"); k = f[1]
		printf "%-11s", k
		for (i = 1; i <= n; i++) {
			run = ch[c[i], k]; v = run == "plan" ? "plan" : substr(run, length(k) + 2)
			d = nd[c[i], run] - nd[c[i], "plan"]
			flag = nd[c[i], run] < 0.99 * nd[c[i], "plan"] ? "*" : " "
			printf " %7s %+7.4f%s", v, d, flag
		}
		printf "\n"
	}
	printf "%-11s", "plan"
	for (i = 1; i <= n; i++) printf " %16.4f", nd[c[i], "plan"]
	printf "\n%-11s", "all chosen"
	for (i = 1; i <= n; i++) printf " %16.4f", nd[c[i], "all chosen"]
	printf "\n%-11s", "seconds"
	for (i = 1; i <= n; i++) printf " %16d", secs[c[i]]
	printf "\n"
}' "$choices" "$results"
