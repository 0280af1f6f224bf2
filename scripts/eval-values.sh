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
# each constant, the value is chosen on the other collections as
# scripts/loo-choose.awk chooses (the largest mean nDCG@10 over them, when
# its gain over the plan's value is significant; else the plan's), and the
# held-out collection's nDCG@10 with that value is printed beside the plan's:
# a constant whose choice loses more than 1 % on the collection held out
# does not carry, and is flagged.  Then each held-out collection is searched
# once with every choice made for it at once ("all chosen").  Writes
# DIR/values.tsv (collection, run, nDCG@10, seconds) and DIR/values-pq.tsv
# (a line per query and run) and prints the tables; with --reuse, a
# collection whose runs DIR/values-pq.tsv already holds is not searched
# again (delete its lines to measure it again).
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
perquery=$work/values-pq.tsv
for f in "$results" "$perquery"; do
	if [ -n "$reuse" ] && [ -f "$f" ]; then
		grep -v '	all chosen	' "$f" >"$f.new" || :
		mv "$f.new" "$f"
	else
		: >"$f"
	fi
done

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
	n=$(judge "$c" "$name" "$w/values.jsonl")
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
	if grep -q "^$c	plan	" "$perquery"; then
		continue
	fi
	for f in "$results" "$perquery"; do
		grep -v "^$c	" "$f" >"$f.new" || :
		mv "$f.new" "$f"
	done
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

# Leave one out, constant by constant: "held-out constant choice candidate
# gain p" lines.
choices=$work/values-choices.tsv
echo "$grid" | while IFS='|' read -r k o vs; do
	# shellcheck disable=SC2086 # the values are words
	awk -F'\t' -v cols="$collections" -v shipped=plan -v runs="plan $(printf " $k=%s" $vs)" \
		-f "$top/scripts/loo-choose.awk" "$perquery" | awk -F'\t' -v OFS='\t' -v k="$k" '{ $1 = $1 OFS k; print }'
done | sort >"$choices"

# Each held-out collection with every choice made for it at once.
for c in $collections; do
	set --
	while IFS='	' read -r held k run _; do
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
FILENAME ~ /choices/ {
	ch[$1, $2] = $3
	if ($4 != $3)
		noise = noise sprintf("  %s held out: %s (%s over the others, p %s)\n", $1, $4, $5, $6)
	next
}
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
	if (noise != "")
		printf "Best on the others but not chosen, the gain not significant (p >= 0.05):\n%s", noise
}' "$choices" "$results"
