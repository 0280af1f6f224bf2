#!/bin/sh
# bench-hybrid.sh [BIN [DIR]]: one request at a time, as a user runs it: each
# query a process (the vector lane alone, the pipeline from the query's
# text `ev-embed --role query | ev-search-vec`, and the whole
# scripts/ev-hybrid with a plan) beside python3-faiss doing the vector
# search of the same query in a process of its own (faiss.read_index of
# the same index, the query's vector, index.search, the hits printed as
# JSON lines).
#
#   DIR: a store to read (kb.db, kb.faiss, queries.jsonl; nothing is written
#        there); without it, Cranfield's store is made in a temporary
#        directory (needs ../shared/data/cranfield; skips, saying so,
#        without it).
#   INDEX=FILE: the index to search (default DIR/kb.faiss).
#   PLAN=FILE: ev-hybrid's plan (default samples/plan.yaml, as make
#        bench-scale runs it; PLAN= for none).
#   QUERIES=N: the first N queries (default 50); RUNS=R: each query R times.
#   OLD_BIN=DIR: also time the programs of DIR (an older build) in the same
#        run, each query by each build in turn, so that before and after
#        are measured under the same load (with DIR/../scripts/ev-hybrid,
#        that build's script, when there is one).
# Prints p50 and p95 of wall and CPU (user + system, the children's
# included) milliseconds a request, and each evkit figure's ratio to the
# peer's at p50.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
bin=$(cd "${1:-$top/bin}" && pwd)
py=/usr/bin/python3
"$py" -c 'import faiss, numpy' 2>/dev/null ||
	{ echo "bench-hybrid: python3-faiss is not installed; skipped"; exit 0; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/evkit-bench-hybrid.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
if [ -n "${2:-}" ]; then
	dir=$(cd "$2" && pwd)
else
	[ -r "$top/../shared/data/cranfield/cran.all.1400" ] ||
		{ echo "bench-hybrid: no ../shared/data/cranfield; skipped"; exit 0; }
	dir=$tmp
	(cd "$tmp" && "$top/scripts/cranfield.sh" . &&
	 "$bin/ev-ingest" --db kb.db --quiet docs.jsonl 2>/dev/null &&
	 "$bin/ev-embed" --db kb.db --train >/dev/null 2>&1 &&
	 "$bin/ev-embed" --db kb.db --pending 2>/dev/null |
		"$bin/ev-embed-load" --db kb.db --index kb.faiss 2>/dev/null)
fi
head -n "${QUERIES:-50}" "$dir/queries.jsonl" > "$tmp/q.jsonl"
"$bin/ev-embed" --db "$dir/kb.db" --role query "$tmp/q.jsonl" > "$tmp/qv.jsonl"
index=${INDEX:-$dir/kb.faiss}
tail -n +3 "$index" > "$tmp/plain.faiss"	# Faiss's own file, for the peer
plan=${PLAN-$top/samples/plan.yaml}

"$py" - "$bin" "${OLD_BIN:-}" "$dir" "$tmp" "${RUNS:-1}" "$top/scripts/ev-hybrid" "$index" \
    "$plan" <<'EOF'
import json, os, subprocess, sys, time
new, old, d, tmp, runs, hybrid, index, plan = sys.argv[1:9]
runs = int(runs)
db = os.path.join(d, "kb.db")
planargs = ["--plan", plan] if plan else []
peer = r"""
import json, sys
import faiss, numpy as np
index = faiss.read_index(sys.argv[1])
q = json.loads(sys.stdin.readline())
D, I = index.search(np.array([q["vector"]], dtype="float32"), 100)
out = sys.stdout
for rank, (s, i) in enumerate(zip(D[0], I[0]), 1):
    if i >= 0:
        out.write(json.dumps({"query_id": q["query_id"], "id": int(i), "rank": rank,
                              "score": float(s), "lane": "vector"}) + "\n")
"""
queries = [json.loads(l) for l in open(os.path.join(tmp, "q.jsonl"))]
vectors = open(os.path.join(tmp, "qv.jsonl")).read().splitlines()

def systems(b, tag):
    env = dict(os.environ, EV_BIN=b)
    script = os.path.join(b, "..", "scripts", "ev-hybrid")
    script = script if b != new and os.path.exists(script) else hybrid
    pipe = "'%s' --db '%s' --role query | '%s' --db '%s' --index '%s' -k 100" % (
        os.path.join(b, "ev-embed"), db, os.path.join(b, "ev-search-vec"), db, index)
    return [
        (tag + "ev-search-vec", lambda i: ([os.path.join(b, "ev-search-vec"), "--db", db,
                                           "--index", index, "-k", "100"], vectors[i], env)),
        (tag + "ev-embed --role query | ev-search-vec",
         lambda i: (["/bin/sh", "-c", pipe], json.dumps(queries[i]), env)),
        (tag + "scripts/ev-hybrid", lambda i: ([script, "--db", db, "--index", index] +
                                               planargs + [queries[i]["query"]], None, env)),
    ]

timed = systems(new, "")
if old:
    timed += systems(old, "before: ")
timed.append(("python3-faiss (read_index, search)",
              lambda i: (["/usr/bin/python3", "-c", peer, os.path.join(tmp, "plain.faiss")],
                         vectors[i], None)))

def run(argv, stdin, env):
    t0 = time.monotonic()
    p = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL, env=env)
    p.stdin.write((stdin + "\n").encode() if stdin is not None else b"")
    p.stdin.close()
    _, status, ru = os.wait4(p.pid, 0)
    if status != 0:
        sys.exit("bench-hybrid: %s failed (status %d)" % (argv[0], status))
    return (time.monotonic() - t0) * 1000, (ru.ru_utime + ru.ru_stime) * 1000

def pct(v, p):
    v = sorted(v)
    return v[min(len(v) - 1, int(round(p / 100 * (len(v) - 1))))]

t = {name: ([], []) for name, _ in timed}
for r in range(runs):
    for i in range(len(queries)):
        for name, make in timed:
            w, c = run(*make(i))
            t[name][0].append(w)
            t[name][1].append(c)
peer = t["python3-faiss (read_index, search)"]
print("one request a process: %d queries x %d, k=100, store %s, index %s, plan %s; "
      "ms, p50 / p95" % (len(queries), runs, d, index, plan or "none"))
for name, (w, c) in t.items():
    print("  %-48s wall %6.0f / %6.0f   CPU %6.0f / %6.0f   p50 / peer's: wall %.2f, CPU %.2f" %
          (name, pct(w, 50), pct(w, 95), pct(c, 50), pct(c, 95),
           pct(w, 50) / pct(peer[0], 50), pct(c, 50) / pct(peer[1], 50)))
EOF
