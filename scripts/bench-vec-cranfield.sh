#!/bin/sh
# bench-vec-cranfield.sh [BIN]: the vector lane as a user runs it, against
# python3-faiss doing the same job, on real text: Cranfield's 225 queries
# four times over (900), k=100, an exact index (--factory Flat) of the
# built-in model's vectors at its default dimension.
#
#   evkit: the whole ev-search-vec process (query vectors in, hit records with
#     their chunk fields and a snippet out; and with --no-snippet);
#   peer:  a whole Python process that reads the same JSON Lines query
#     vectors, searches a faiss.IndexFlatIP holding the same vectors (read
#     from the store) query by query, and prints each hit as a JSON line
#     (query_id, id, rank, score, lane).
# Each is the best of three runs by CPU time (user + system), the wall time
# beside it; the ratio is evkit's CPU time over the peer's (target: at most
# 1).  OLD_BIN=DIR also times the ev-search-vec of DIR (an older build) in
# the same run, so that before and after are measured under the same load.
# Needs ../shared/data/cranfield (skips, saying so, without it).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
bin=$(cd "${1:-$top/bin}" && pwd)
py=/usr/bin/python3
[ -r "$top/../shared/data/cranfield/cran.all.1400" ] ||
	{ echo "bench-vec-cranfield: no ../shared/data/cranfield; skipped"; exit 0; }
"$py" -c 'import faiss, numpy' 2>/dev/null ||
	{ echo "bench-vec-cranfield: python3-faiss is not installed; skipped"; exit 0; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/evkit-bench-vec-cran.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
cd "$tmp"
"$top/scripts/cranfield.sh" .
"$bin/ev-ingest" --db kb.db --quiet docs.jsonl 2>/dev/null
"$bin/ev-embed" --db kb.db --train >/dev/null 2>&1
"$bin/ev-embed" --db kb.db --pending 2>/dev/null |
	"$bin/ev-embed-load" --db kb.db --index kb.faiss --factory Flat 2>/dev/null
for r in 0 1 2 3; do
	jq -c --arg r "$r" '.query_id = "\(.query_id)-\($r)"' queries.jsonl
done > q4.jsonl
"$bin/ev-embed" --db kb.db --role query q4.jsonl > qv.jsonl
nq=$(wc -l < qv.jsonl)

cat > peer.py <<'EOF'
import json, sqlite3, sys
import faiss
import numpy as np
con = sqlite3.connect(sys.argv[1])
rows = con.execute("SELECT c.id, v.vector FROM vec_vectors v JOIN chunks c ON c.rowid = v.rowid"
                   " ORDER BY v.rowid").fetchall()
ids = [r[0] for r in rows]
x = np.frombuffer(b"".join(r[1] for r in rows), dtype="float32").reshape(len(rows), -1)
index = faiss.IndexFlatIP(x.shape[1])
index.add(x)
out = sys.stdout
for line in open(sys.argv[2]):
    q = json.loads(line)
    D, I = index.search(np.array([q["vector"]], dtype="float32"), 100)
    for rank, (s, i) in enumerate(zip(D[0], I[0]), 1):
        if i >= 0:
            out.write(json.dumps({"query_id": q["query_id"], "id": ids[i], "rank": rank,
                                  "score": float(s), "lane": "vector"}) + "\n")
EOF

# vec_time BINDIR OUT [OPTION]: best of three of that ev-search-vec over the
# query vectors into OUT; prints "WALL CPU".
vec_time() {
	"$py" "$top/scripts/bench-time.py" 3 "$2" \
		"$1/ev-search-vec" --db kb.db --index kb.faiss -k 100 ${3:+"$3"} qv.jsonl
}
set -- $(vec_time "$bin" ev.jsonl)
ev_w=$1 ev_c=$2
set -- $(vec_time "$bin" evn.jsonl --no-snippet)
evn_w=$1 evn_c=$2
set -- $("$py" "$top/scripts/bench-time.py" 3 peer.jsonl "$py" peer.py kb.db qv.jsonl)
py_w=$1 py_c=$2
if [ -n "${OLD_BIN:-}" ]; then
	set -- $(vec_time "$OLD_BIN" old.jsonl)
	old_w=$1 old_c=$2
	set -- $(vec_time "$OLD_BIN" oldn.jsonl --no-snippet)
	oldn_w=$1 oldn_c=$2
	# (each hit's evidence says when it was retrieved: left out of the comparison)
	for f in old ev; do sed 's/"retrieved_at":"[^"]*"//g' $f.jsonl >$f.cmp; done
	cmp -s old.cmp ev.cmp || echo "bench-vec-cranfield: the hits of OLD_BIN differ from those of BIN"
fi

# The same neighbours: the share of the peer's (query, chunk) pairs evkit gave.
same=$(jq -r '"\(.query_id) \(.id)"' evn.jsonl | sort > a.txt
	jq -r '"\(.query_id) \(.id)"' peer.jsonl | sort > b.txt
	awk 'NR == FNR { a[$0]; next } ($0 in a) { n++ } END { printf "%.4f", n / FNR }' a.txt b.txt)

printf 'vector lane on Cranfield: %d queries, k=100, Flat, %d dimensions, %d hits; best of 3, CPU (wall) s\n' \
	"$nq" "$(head -n 1 qv.jsonl | jq '.vector | length')" "$(wc -l < ev.jsonl)"
printf '  %-40s %7s (%s)\n' "ev-search-vec" "$ev_c" "$ev_w"
printf '  %-40s %7s (%s)\n' "ev-search-vec --no-snippet" "$evn_c" "$evn_w"
printf '  %-40s %7s (%s)\n' "python3-faiss, the same job (peer)" "$py_c" "$py_w"
[ -z "${OLD_BIN:-}" ] || {
	printf '  %-40s %7s (%s)\n' "before (OLD_BIN): ev-search-vec" "$old_c" "$old_w"
	printf '  %-40s %7s (%s)\n' "before: ev-search-vec --no-snippet" "$oldn_c" "$oldn_w"
	awk -v a="$old_c" -v n="$oldn_c" -v b="$py_c" 'BEGIN {
		printf "  before (OLD_BIN): ratio to the peer by CPU: %.2f with snippets, %.2f without\n", a / b, n / b }'
}
awk -v a="$ev_c" -v n="$evn_c" -v b="$py_c" 'BEGIN {
	printf "  ratio to the peer by CPU: %.2f with snippets, %.2f without (target <= 1)\n", a / b, n / b }'
printf '  same neighbours as the peer: %s of its hits\n' "$same"
