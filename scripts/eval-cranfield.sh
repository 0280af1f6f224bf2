#!/bin/sh
# eval-cranfield.sh: retrieval quality on Cranfield alone, lane variants and typos
# (make eval runs scripts/eval.sh over four collections).
# Usage: scripts/eval-cranfield.sh [BIN]
#
# Converts ../shared/data/cranfield into a scratch directory (cranfield.sh),
# ingests it (one chunk per abstract: --size 4000), runs each lane at k=100
# (the text lane also without its proximity and feedback, to show what they
# add),
# fuses them (RRF, and the method of samples/plan.yaml) and prints ev-eval's
# summary line for each, after the reference figures of the collection's
# README (ev-eval: binary relevance, trec_eval's nDCG).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
bin=$(cd "${1:-$top/bin}" && pwd)
PATH=$bin:$PATH
tmp=$(mktemp -d "${TMPDIR:-/tmp}/evkit-eval.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM

"$top/scripts/cranfield.sh" "$tmp"
ev-ingest --db "$tmp/store.db" --quiet --size 4000 --overlap 0 "$tmp/docs.jsonl"

echo "reference (README): plain SQLite FTS5 bm25 ndcg@10 0.511 map 0.412 recall@100 0.745"
printf 'text, BM25 only (--proximity 0 --feedback 0): '
ev-search-text --db "$tmp/store.db" -k 100 --proximity 0 --feedback 0 "$tmp/queries.jsonl" |
	ev-eval --qrels "$tmp/qrels"
printf 'text, with proximity, no feedback (--feedback 0): '
ev-search-text --db "$tmp/store.db" -k 100 --feedback 0 "$tmp/queries.jsonl" |
	ev-eval --qrels "$tmp/qrels"
ev-search-text --db "$tmp/store.db" -k 100 "$tmp/queries.jsonl" >"$tmp/run.text.jsonl"
printf 'text (the defaults: proximity 0.2, feedback from 10 chunks): '
ev-eval --qrels "$tmp/qrels" "$tmp/run.text.jsonl"

echo "reference (README): LSA prototype, 200 dimensions ndcg@10 0.538 map 0.443 recall@100 0.799"
ev-embed --db "$tmp/store.db" --train >/dev/null
ev-ingest --db "$tmp/store.db" --all --size 4000 --overlap 0 "$tmp/docs.jsonl" |
	ev-embed --db "$tmp/store.db" --role document |
	ev-embed-load --db "$tmp/store.db" --index "$tmp/kb.faiss" 2>/dev/null
ev-embed --db "$tmp/store.db" --role query "$tmp/queries.jsonl" |
	ev-search-vec --db "$tmp/store.db" --index "$tmp/kb.faiss" -k 100 --no-snippet \
	>"$tmp/run.vector.jsonl"
printf 'vector: '
ev-eval --qrels "$tmp/qrels" "$tmp/run.vector.jsonl"

echo "reference (README): RRF (k=60) of the FTS5 and LSA runs ndcg@10 0.540 map 0.451 recall@100 0.799"
printf 'fused, rrf k=60: '
ev-fuse --no-explain "$tmp/run.text.jsonl" "$tmp/run.vector.jsonl" | ev-eval --qrels "$tmp/qrels"
printf 'fused, samples/plan.yaml (weighted, minmax, vector 0.7 text 0.3): '
ev-fuse --no-explain --config "$top/samples/plan.yaml" "$tmp/run.text.jsonl" "$tmp/run.vector.jsonl" |
	ev-eval --qrels "$tmp/qrels"

# Typo tolerance: the same queries with two typos each (a transposition,
# substitution, deletion or insertion in words of 6 letters or more; a fixed
# seed), searched without and with expansion (--fuzzy 0, the default 2).
/usr/bin/python3 - "$tmp/queries.jsonl" >"$tmp/typos.jsonl" <<'PY'
import json, random, re, sys
rng = random.Random(7)
for line in open(sys.argv[1]):
    q = json.loads(line)
    ws = q["query"].split()
    long = [i for i, w in enumerate(ws) if re.fullmatch(r"[a-z]{6,}", w)]
    for i in rng.sample(long, min(2, len(long))):
        w = list(ws[i])
        p = rng.randrange(1, len(w) - 1)
        op = rng.choice("tsdi")
        if op == "t":
            p = min(p, len(w) - 2)
            w[p], w[p + 1] = w[p + 1], w[p]
        elif op == "s":
            w[p] = rng.choice("abcdefghijklmnopqrstuvwxyz")
        elif op == "d":
            del w[p]
        else:
            w.insert(p, rng.choice("abcdefghijklmnopqrstuvwxyz"))
        ws[i] = "".join(w)
    q["query"] = " ".join(ws)
    print(json.dumps(q))
PY
for f in 0 2; do
	printf 'text, 2 typos a query, --fuzzy %s: ' "$f"
	ev-search-text --db "$tmp/store.db" -k 100 --fuzzy "$f" "$tmp/typos.jsonl" |
		ev-eval --qrels "$tmp/qrels"
done
