#!/bin/sh
# eval-confidence.sh: which confidence measure of a lane's answer predicts
# that lane's quality, query by query, on the test collections.
# Usage: scripts/eval-confidence.sh [--data DIR] [--runs DIR]
#                                   [--collections "cranfield med ..."] [BIN]
#
# For each collection, the text and vector lanes' hits of the default
# pipeline (scripts/eval.sh --keep: DIR/COLLECTION/run/{text,vector}.jsonl;
# made here when --runs is not given) and each query's nDCG@10 in that lane
# (ev-eval --per-query).  For every measure ev-route's gate can use
# (ev-route(1)), computed from the lane's own scores, prints Spearman's rank
# correlation between the measure and the lane's nDCG@10 over the queries of
# each collection, and the mean over the collections: a measure that
# predicts a lane's quality correlates positively with it.  Queries the
# qrels do not judge are left out.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
data=$top/../shared/data
runs=
collections="cranfield med cacm npl time cf aila"
while [ $# -gt 0 ]; do
	case $1 in
	--data) data=${2:?}; shift 2 ;;
	--runs) runs=${2:?}; shift 2 ;;
	--collections) collections=${2:?}; shift 2 ;;
	-*) echo "eval-confidence.sh: unknown option '$1'" >&2; exit 2 ;;
	*) break ;;
	esac
done
bin=$(cd "${1:-$top/bin}" && pwd)
coldir() {
	if [ -f "$data/$1/jsonl/corpus.jsonl" ]; then echo "$data/$1/jsonl"; else echo "$data/$1"; fi
}
if [ -z "$runs" ]; then
	runs=$(mktemp -d "${TMPDIR:-/tmp}/evkit-conf.XXXXXX")
	trap 'rm -rf "$runs"' EXIT INT TERM
	"$top/scripts/eval.sh" --data "$data" --keep "$runs" --collections "$collections" "$bin" >/dev/null
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/evkit-confw.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
for c in $collections; do
	for lane in text vector; do
		f=$runs/$c/run/$lane.jsonl
		[ -f "$f" ] || { echo "eval-confidence.sh: $f: missing (run scripts/eval.sh --keep)" >&2; exit 1; }
		"$bin/ev-eval" --qrels "$(coldir "$c")/qrels.tsv" --per-query "$f" |
			jq -r 'select(has("query_id")) | [.query_id, ."ndcg@10"] | @tsv' >"$work/$c.$lane.ndcg"
		jq -r '[.query_id, .score] | @tsv' "$f" >"$work/$c.$lane.scores"
	done
done
/usr/bin/python3 - "$work" $collections <<'PY'
import sys, math, collections

work, cols = sys.argv[1], sys.argv[2:]
measures = ["margin", "margin10", "top", "top_mean10", "hits"]

def measure(scores, m):
    if not scores:
        return 0.0
    s1 = scores[0]
    s2 = scores[1] if len(scores) > 1 else 0.0
    s10 = scores[min(9, len(scores) - 1)]
    ten = scores[:10]
    if m == "margin":
        return 1.0 if len(scores) == 1 else max(0.0, min(1.0, (s1 - s2) / abs(s1))) if s1 else 0.0
    if m == "margin10":
        return 1.0 if len(scores) == 1 else max(0.0, min(1.0, (s1 - s10) / abs(s1))) if s1 else 0.0
    if m == "top":
        return s1
    if m == "top_mean10":
        mean = sum(ten) / len(ten)
        return s1 / mean if mean > 0 else 0.0
    return float(len(scores))

def ranks(v):
    order = sorted(range(len(v)), key=lambda i: v[i])
    r = [0.0] * len(v)
    i = 0
    while i < len(v):
        j = i
        while j + 1 < len(v) and v[order[j + 1]] == v[order[i]]:
            j += 1
        for k in range(i, j + 1):
            r[order[k]] = (i + j) / 2.0 + 1
        i = j + 1
    return r

def spearman(x, y):
    if len(x) < 3:
        return float("nan")
    rx, ry = ranks(x), ranks(y)
    mx, my = sum(rx) / len(rx), sum(ry) / len(ry)
    sxy = sum((a - mx) * (b - my) for a, b in zip(rx, ry))
    sx = math.sqrt(sum((a - mx) ** 2 for a in rx))
    sy = math.sqrt(sum((b - my) ** 2 for b in ry))
    return sxy / (sx * sy) if sx > 0 and sy > 0 else float("nan")

print("Spearman's rank correlation of each confidence measure with the lane's nDCG@10, query by query")
for lane in ("text", "vector"):
    print("\n%s lane" % lane)
    print("%-10s %5s " % ("collection", "n") + " ".join("%10s" % m for m in measures))
    sums = collections.defaultdict(list)
    for c in cols:
        nd = {}
        for line in open("%s/%s.%s.ndcg" % (work, c, lane)):
            q, v = line.rstrip("\n").split("\t")
            nd[q] = float(v)
        sc = collections.defaultdict(list)
        for line in open("%s/%s.%s.scores" % (work, c, lane)):
            q, v = line.rstrip("\n").split("\t")
            sc[q].append(float(v))
        qs = sorted(nd)
        row = []
        for m in measures:
            rho = spearman([measure(sc.get(q, []), m) for q in qs], [nd[q] for q in qs])
            sums[m].append(rho)
            row.append(rho)
        print("%-10s %5d " % (c, len(qs)) + " ".join("%10.3f" % r for r in row))
    print("%-10s %5s " % ("mean", "") + " ".join("%10.3f" % (sum(sums[m]) / len(sums[m])) for m in measures))
PY
