#!/bin/sh
# make demo: the whole pipeline on the bundled samples/, in build/demo/.
#   1. ev-ingest     samples/ into a store (chunks with stable ids)
#   2. ev-embed      fits the built-in LSA model on the store's chunks
#   3. ev-ingest --all | ev-embed | ev-embed-load   vectors into a Faiss index
#   4. scripts/ev-hybrid   both lanes, fused and packed as an EvidencePack
set -eu
bin=$(cd "${1:-bin}" && pwd)
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
PATH=$bin:$PATH
export PATH
demo=build/demo
rm -rf "$demo"
mkdir -p "$demo"
db=$demo/kb.db
index=$demo/kb.faiss
say() { printf '\n\033[1m$ %s\033[0m\n' "$*"; }

say "ev-ingest --db $db samples | wc -l"
ev-ingest --db "$db" samples | wc -l
say "ev-embed --db $db --train"
ev-embed --db "$db" --train 2>&1 | head -3
say "ev-ingest --db $db --all samples | ev-embed --db $db | ev-embed-load --db $db --index $index"
ev-ingest --db "$db" --all samples | ev-embed --db "$db" | ev-embed-load --db "$db" --index "$index"
q="how do I rotate a leaked client secret"
say "scripts/ev-hybrid --db $db --index $index --plan samples/plan.yaml -k 5 --format text \"$q\""
scripts/ev-hybrid --db "$db" --index "$index" --plan samples/plan.yaml -k 5 --format text "$q"
say "scripts/ev-hybrid --db $db --index $index --plan samples/plan.yaml -k 2 --format json \"$q\""
scripts/ev-hybrid --db "$db" --index "$index" --plan samples/plan.yaml -k 2 --format json "$q"
printf '\nThe store and index are in %s; try your own questions:\n  scripts/ev-hybrid --db %s --index %s --plan samples/plan.yaml --format text "..."\n' \
	"$demo" "$db" "$index"
