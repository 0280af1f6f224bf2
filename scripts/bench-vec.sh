#!/bin/sh
# bench-vec.sh BIN: the vector lane against Debian's python3-faiss, same run,
# same vectors, same index type.
#
#   search: 1000 queries, k=100, over N synthetic unit vectors of D dimensions
#     ev-search-vec (JSON in, hit records with chunk fields out; with and
#     without snippets) against a Python program doing the same job with
#     faiss: read the JSON queries, search, write one JSON line per hit
#     (query_id, id, rank, score; no store behind it), and against faiss's
#     search call alone (the floor: no parsing, no output).
#   load: ev-embed-load throughput in vectors/s, JSON Lines and .npy, against
#     python faiss building and writing the same index from the .npy.
#
# N, D, Q and FACTORY may be set in the environment (defaults 20000, 256,
# 1000, Flat; FACTORY=HNSW32 compares HNSW with efSearch 128 on both sides).
set -eu
bin=$(cd "${1:?usage: bench-vec.sh BIN}" && pwd)
top=$(cd "$(dirname "$0")/.." && pwd)
py=/usr/bin/python3
N=${N:-20000} D=${D:-256} Q=${Q:-1000} K=100 FACTORY=${FACTORY:-Flat}
work=$(mktemp -d "${TMPDIR:-/tmp}/evkit-bench-vec.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
cd "$work"
export PATH="$bin:$PATH"

now() { date +%s%N; }
ms() { echo $(( ($2 - $1) / 1000000 )); }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }'; }

. "$top/tests/cmd/ev-embed-load/mkstore"
mkstore kb.db "$N"
"$py" - "$N" "$D" "$Q" <<'EOF'
import json, sys
import numpy as np
n, d, q = (int(a) for a in sys.argv[1:4])
rng = np.random.default_rng(7)
def unit(m):
    x = rng.standard_normal((m, d)).astype('float32')
    return x / np.linalg.norm(x, axis=1, keepdims=True)
x, qs = unit(n), unit(q)
np.save('x.npy', x)
np.save('q.npy', qs)
ids = ['d%d:s1:%d' % (i // 2 + 1, i % 2) for i in range(n)]
open('ids.txt', 'w').write('\n'.join(ids) + '\n')
with open('x.jsonl', 'w') as f:
    for i in range(n):
        f.write(json.dumps({'id': ids[i], 'vector': [float(v) for v in x[i]], 'model': 'synthetic'}) + '\n')
with open('q.jsonl', 'w') as f:
    for i in range(q):
        f.write(json.dumps({'query_id': i + 1, 'query': 'lift and drag of body %d' % i,
            'vector': [float(v) for v in qs[i]], 'model': 'synthetic'}) + '\n')
EOF

# The peer: the same index type in python faiss, ids 1..N as the rowids.
cat > peer.py <<'EOF'
import json, sys, time
import faiss
import numpy as np
mode, factory, k = sys.argv[1], sys.argv[2], int(sys.argv[3])
t0 = time.time()
if mode == 'build':
    x = np.load('x.npy')
    index = faiss.index_factory(x.shape[1], 'IDMap,' + factory, faiss.METRIC_INNER_PRODUCT)
    index.add_with_ids(x, np.arange(1, x.shape[0] + 1, dtype='int64'))
    faiss.write_index(index, 'peer.faiss')
    print('%.0f' % ((time.time() - t0) * 1000))
    sys.exit()
index = faiss.read_index('peer.faiss')
if factory.startswith('HNSW'):
    faiss.ParameterSpace().set_index_parameter(index, 'efSearch', 128)
if mode == 'search':       # faiss alone: the floor
    q = np.load('q.npy')
    t0 = time.time()
    D, I = index.search(q, k)
    print('%.0f' % ((time.time() - t0) * 1000))
else:                      # the same job as ev-search-vec, minus the store
    recs = [json.loads(line) for line in open('q.jsonl')]
    q = np.array([r['vector'] for r in recs], dtype='float32')
    D, I = index.search(q, k)
    out = sys.stdout
    for r, ds, ids in zip(recs, D, I):
        for rank, (s, i) in enumerate(zip(ds, ids), 1):
            out.write(json.dumps({'query_id': r['query_id'], 'id': int(i), 'rank': rank,
                'score': float(s), 'lane': 'vector'}) + '\n')
EOF

# ---- load ----
t0=$(now); ev-embed-load --db kb.db --index kb.faiss --factory "$FACTORY" x.jsonl 2>/dev/null; t1=$(now)
load_json=$(ms "$t0" "$t1")
t0=$(now); ev-embed-load --db kb.db --index kb.faiss --reset --format npy --ids ids.txt \
	--model synthetic x.npy 2>/dev/null; t1=$(now)
load_npy=$(ms "$t0" "$t1")
t0=$(now); peer_build_in=$("$py" peer.py build "$FACTORY" $K); t1=$(now)
peer_build=$(ms "$t0" "$t1")

# ---- search (each the best of three runs: the machines are shared) ----
ef=""
case $FACTORY in HNSW*) ef="--ef-search 128" ;; esac
best() {	# best OUT CMD...: the least wall time of three runs, in ms
	out=$1 b=""
	shift
	for i in 1 2 3; do
		t0=$(now); "$@" > "$out"; t1=$(now)
		t=$(ms "$t0" "$t1")
		if [ -z "$b" ] || [ "$t" -lt "$b" ]; then b=$t; fi
	done
	echo "$b"
}
ev_snip=$(best hits.jsonl ev-search-vec --db kb.db --index kb.faiss -k $K $ef q.jsonl)
ev_nosnip=$(best hits2.jsonl ev-search-vec --db kb.db --index kb.faiss -k $K $ef --no-snippet q.jsonl)
peer_job=$(best peer.jsonl "$py" peer.py job "$FACTORY" $K)
peer_search=$("$py" peer.py search "$FACTORY" $K)
for i in 1 2; do
	t=$("$py" peer.py search "$FACTORY" $K)
	if [ "$t" -lt "$peer_search" ]; then peer_search=$t; fi
done

jq -r '"\(.query_id) \(.id)"' hits2.jsonl > ev.ids
same=$("$py" - <<'EOF'
import json
ids = [line.strip() for line in open('ids.txt')]
ev = set(l.strip() for l in open('ev.ids'))
peer = set('%s %s' % (r['query_id'], ids[r['id'] - 1]) for r in map(json.loads, open('peer.jsonl')))
print('%.4f' % (len(ev & peer) / max(len(peer), 1)))
EOF
)

printf 'vector lane: %d x %d unit vectors, %s, %d queries, k=%d\n' "$N" "$D" "$FACTORY" "$Q" $K
printf '  %-44s %8s %8s %7s\n' "search" "evkit" "peer" "ratio"
printf '  %-44s %6d ms %6d ms %7s\n' "ev-search-vec (snippets) vs python job" "$ev_snip" "$peer_job" \
	"$(ratio "$ev_snip" "$peer_job")"
printf '  %-44s %6d ms %6d ms %7s\n' "ev-search-vec --no-snippet vs python job" "$ev_nosnip" "$peer_job" \
	"$(ratio "$ev_nosnip" "$peer_job")"
printf '  %-44s %6d ms %6d ms %7s\n' "ev-search-vec --no-snippet vs faiss search" "$ev_nosnip" \
	"$peer_search" "$(ratio "$ev_nosnip" "$peer_search")"
printf '  same neighbours as the peer: %s of hits\n' "$same"
printf '  %-44s %8s\n' "load" "vectors/s"
printf '  %-44s %8d  (%d ms)\n' "ev-embed-load JSON Lines" $((N * 1000 / (load_json + 1))) "$load_json"
printf '  %-44s %8d  (%d ms)\n' "ev-embed-load .npy" $((N * 1000 / (load_npy + 1))) "$load_npy"
printf '  %-44s %8d  (%d ms, of which build+write %s ms)\n' "python faiss build from .npy (peer)" \
	$((N * 1000 / (peer_build + 1))) "$peer_build" "$peer_build_in"
