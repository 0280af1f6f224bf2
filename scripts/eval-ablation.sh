#!/bin/sh
# eval-ablation.sh: what each of the text lane's additions over plain BM25
# does on each test collection (make eval-ablation).
# Usage: scripts/eval-ablation.sh [--plan PLAN.yaml] [--data DIR] [--keep DIR]
#                                 [--collections "cranfield med ..."] [BIN]
#
# Makes each collection's store with ev-ingest (or searches the one already
# in --keep DIR, as scripts/eval.sh --keep DIR left it), then runs the text
# lane of the plan (samples/plan.yaml by default) over each collection's
# queries once as the plan has it and once with each addition turned off:
# pseudo-relevance feedback, proximity pairs, title weights, BM25's k1 and b
# (back to FTS5's 1.2 and 0.75), typo repair, request-word dropping, the
# reading of a long query as a document and the scoring of a hit's document
# as a whole, and once with all of them off
# ("bm25": FTS5's bm25() over the same chunks).  Prints nDCG@10 of each run
# and, for each addition, what turning it off changes (negative: the
# addition helps), beside plain FTS5's figure from DIR/README.md.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
prog=eval-ablation.sh
collections="cranfield med cacm npl time cf aila"
. "$top/scripts/eval-common.sh"

# The plan without request-word dropping (a key without an option).
noreq=$work/plan-keep-request-words.yaml
sed '/^  text:$/a\
    drop_request_words: false' "$plan" >"$noreq"

# The runs: a name, the plan (or the one keeping request words), then
# ev-search-text's options over the plan's.
variants="default|$plan|
-feedback|$plan|--feedback 0
-proximity|$plan|--proximity 0
-titles|$plan|--weight title=1 --weight section_title=1
-k1b|$plan|--k1 1.2 --b 0.75
-fuzzy|$plan|--fuzzy 0
-request|$noreq|
-longq|$plan|--long-query 0
-docs|$plan|--document-weight 0
bm25|$noreq|--feedback 0 --proximity 0 --weight title=1 --weight section_title=1 --k1 1.2 --b 0.75 --fuzzy 0 --long-query 0 --document-weight 0"

results=$work/ablation.tsv
: >"$results"
for c in $collections; do
	d=$(coldir "$c")
	w=$work/$c
	if [ ! -f "$w/store.db" ]; then
		mkdir -p "$w"
		ev-ingest --db "$w/store.db" "$d/corpus.jsonl" >"$w/chunks.jsonl" 2>/dev/null
	fi
	echo "$variants" | while IFS='|' read -r name conf opts; do
		start=$(date +%s)
		# shellcheck disable=SC2086 # opts are words
		ev-search-text --db "$w/store.db" --config "$conf" $opts "$d/queries.jsonl" \
			2>/dev/null >"$w/ablation$name.jsonl"
		n=$(ev-eval --qrels "$d/qrels.tsv" "$w/ablation$name.jsonl" |
			sed 's/.*"ndcg@10":\([0-9.]*\).*/\1/')
		printf '%s\t%s\t%s\t%s\n' "$c" "$name" "$n" "$(($(date +%s) - start))" >>"$results"
		echo "$c $name $n" >&2
	done
done

awk -F'|' 'NF >= 7 && $3 ~ /FTS5/ { c = $2; n = $4; gsub(/ /, "", c); gsub(/ /, "", n); print c "\tfts5\t" n }' \
	"$data/README.md" >"$work/ablation-peers.tsv"
awk -F'\t' -v cols="$collections" -v vs="default -feedback -proximity -titles -k1b -fuzzy -request -longq -docs bm25" '
FNR == NR { fts[$1] = $3; next }
{ v[$1, $2] = $3; t[$1] += $4 }
END {
	nv = split(vs, V, " "); nc = split(cols, C, " ")
	printf "%-10s %7s", "collection", "FTS5"
	for (j = 1; j <= nv; j++) printf " %9s", V[j]
	printf " %6s\n", "time"
	for (i = 1; i <= nc; i++) {
		c = C[i]; printf "%-10s %7.4f", c, fts[c]
		for (j = 1; j <= nv; j++) {
			if (V[j] == "default" || V[j] == "bm25") printf " %9.4f", v[c, V[j]]
			else printf " %+9.4f", v[c, V[j]] - v[c, "default"]
		}
		printf " %5ds\n", t[c]
	}
	print "(the columns between default and bm25: nDCG@10 with that addition off, less the default;"
	print " negative: the addition helps there)"
}' "$work/ablation-peers.tsv" "$results"
