#!/bin/sh
# eval-embed.sh: the vector lane alone on Cranfield, judged by ev-eval.
#
# Usage: scripts/eval-embed.sh BIN [DIM ...]   (default: 256)
#
# Converts ../shared/data/cranfield (scripts/cranfield.sh), ingests it, and for
# each DIM: ev-embed --train --dim DIM, ev-embed of every chunk into
# ev-embed-load, ev-embed of the 225 queries into ev-search-vec -k 100, and
# ev-eval's summary (binary relevance).  Prints one line per DIM.
set -eu
bin=$(cd "${1:?usage: eval-embed.sh BIN [DIM ...]}" && pwd)
shift
[ $# -gt 0 ] || set -- 256
top=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/eval-embed.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
PATH=$bin:$PATH
"$top/scripts/cranfield.sh" "$work/cran"
ev-ingest --db "$work/db" --all "$work/cran/docs.jsonl" > "$work/chunks.jsonl"
printf '%-5s %s\n' dim "ev-eval summary of the vector lane (k=100)"
for dim in "$@"; do
	rm -f "$work/idx"
	ev-embed --db "$work/db" --train --dim "$dim" > /dev/null 2> "$work/train.err"
	ev-embed --db "$work/db" --role document < "$work/chunks.jsonl" |
		ev-embed-load --db "$work/db" --index "$work/idx" --reset > /dev/null 2>&1
	ev-embed --db "$work/db" --role query "$work/cran/queries.jsonl" |
		ev-search-vec --db "$work/db" --index "$work/idx" -k 100 > "$work/run.jsonl"
	printf '%-5s %s\n' "$dim" "$(ev-eval --qrels "$work/cran/qrels" "$work/run.jsonl")"
done
