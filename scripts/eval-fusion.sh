#!/bin/sh
# eval-fusion.sh: every fusion method and normalisation of ev-fuse over two lane
# run files, judged by ev-eval; prints one table (nDCG@10, MAP, R@100, MRR).
#
# Usage: scripts/eval-fusion.sh BIN [TEXT_RUN VECTOR_RUN QRELS]
#
# Without the run files, builds them from the Cranfield collection in
# ../shared/data/cranfield (scripts/cranfield.sh, ev-ingest, ev-embed --train,
# ev-embed-load, ev-search-text -k 100, ev-embed --role query | ev-search-vec
# -k 100) in a scratch directory.  EV_FUSION_KEEP=DIR keeps that directory.
set -eu
bin=$(cd "${1:?usage: eval-fusion.sh BIN [TEXT_RUN VECTOR_RUN QRELS]}" && pwd)
top=$(cd "$(dirname "$0")/.." && pwd)
PATH=$bin:$PATH
export PATH

if [ $# -ge 4 ]; then
	text=$2 vector=$3 qrels=$4
	work=$(mktemp -d "${TMPDIR:-/tmp}/eval-fusion.XXXXXX")
	trap 'rm -rf "$work"' EXIT INT TERM
else
	work=${EV_FUSION_KEEP:-$(mktemp -d "${TMPDIR:-/tmp}/eval-fusion.XXXXXX")}
	mkdir -p "$work"
	[ -n "${EV_FUSION_KEEP:-}" ] || trap 'rm -rf "$work"' EXIT INT TERM
	text=$work/text.jsonl vector=$work/vector.jsonl qrels=$work/qrels
	if [ ! -s "$text" ] || [ ! -s "$vector" ]; then
		echo "eval-fusion: building the Cranfield lanes in $work" >&2
		"$top/scripts/cranfield.sh" "$work" >/dev/null
		rm -f "$work/db" "$work/idx"
		ev-ingest --db "$work/db" --quiet "$work/docs.jsonl"
		ev-embed --db "$work/db" --train >/dev/null
		ev-ingest --db "$work/db" --all "$work/docs.jsonl" |
			ev-embed --db "$work/db" --role document |
			ev-embed-load --db "$work/db" --index "$work/idx" 2>/dev/null
		ev-search-text --db "$work/db" -k 100 "$work/queries.jsonl" >"$text"
		ev-embed --db "$work/db" --role query "$work/queries.jsonl" |
			ev-search-vec --db "$work/db" --index "$work/idx" -k 100 >"$vector"
	fi
fi

# One row: a label and ev-eval's figures for the hits on stdin.
row() {
	ev-eval --qrels "$qrels" | jq -r --arg l "$1" \
		'"\($l)\t\(.["ndcg@10"])\t\(.map)\t\(.["recall@100"])\t\(.mrr)"'
}

printf 'run\tnDCG@10\tMAP\tR@100\tMRR\n'
row "text lane alone" <"$text"
row "vector lane alone" <"$vector"
for g in chunk doc; do
	for k in 60 20 10; do
		ev-fuse --no-explain --group $g --rrf-k $k "$text" "$vector" | row "rrf k=$k group=$g"
	done
	for m in weighted combsum combmnz; do
		for n in none max minmax zscore; do
			ev-fuse --no-explain --group $g --method $m --norm $n "$text" "$vector" |
				row "$m $n group=$g"
		done
	done
done
# seed 004's weights, both ways round
ev-fuse --no-explain --method weighted --norm max --weight vector=0.7 --weight text=0.3 \
	"$text" "$vector" | row "weighted max vector=0.7 text=0.3"
ev-fuse --no-explain --method weighted --norm minmax --weight vector=0.7 --weight text=0.3 \
	"$text" "$vector" | row "weighted minmax vector=0.7 text=0.3"
ev-fuse --no-explain --weight vector=0.7 --weight text=0.3 "$text" "$vector" |
	row "rrf k=60 vector=0.7 text=0.3"
