#!/bin/sh
# bench-ingest.sh BIN: ingest throughput of ev-ingest against its peer, the
# sqlite3 shell loading the same JSON Lines into an FTS5 table (same
# tokenizer) in one transaction.  Both read the same file: the Cranfield
# documents (scripts/cranfield.sh) repeated REPEAT times (default 20) under
# new ids, or a synthetic corpus when the collection is absent.  Each side is
# run RUNS times (default 5) on a fresh database, the two sides taking turns
# (so that a burst of other work on the machine hits both alike); the best
# time counts.
# Prints MB/s of input for each, the ratio (target: ev-ingest >= 0.7 of the
# peer), and the time of a re-run over an unchanged store.  Beside the wall
# time, the CPU time (user + system, best of the runs) of each side, and its
# ratio: on a machine shared with other work the wall times say more about
# the other work than about either side.
set -eu
bin=$(cd "${1:-bin}" && pwd)
top=$(cd "$(dirname "$0")/.." && pwd)
REPEAT=${REPEAT:-20}
RUNS=${RUNS:-5}
py=/usr/bin/python3
tmp=$(mktemp -d "${TMPDIR:-/tmp}/evkit-bench-ingest.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
command -v sqlite3 >/dev/null || { echo "bench-ingest: sqlite3 shell not found" >&2; exit 1; }

if sh "$top/scripts/cranfield.sh" "$tmp/cran" >/dev/null 2>&1; then
	what="Cranfield x $REPEAT"
	$py - "$tmp/cran/docs.jsonl" "$REPEAT" >"$tmp/docs.jsonl" <<'EOF'
import json, sys
docs = [json.loads(l) for l in open(sys.argv[1])]
for r in range(int(sys.argv[2])):
    for d in docs:
        d = dict(d, id="%d-%s" % (r, d["id"]))
        print(json.dumps(d))
EOF
else
	what="synthetic"
	$py - >"$tmp/docs.jsonl" <<'EOF'
import json, random
random.seed(7)
words = ["flow", "wing", "shock", "boundary", "layer", "pressure", "heat", "transfer",
         "supersonic", "laminar", "turbulent", "plate", "cylinder", "mach", "number"]
for i in range(28000):
    text = " .\n".join(" ".join(random.choice(words) for _ in range(12)) for _ in range(8))
    print(json.dumps({"id": "s%d" % i, "title": "doc %d" % i, "text": text}))
EOF
fi
bytes=$(wc -c <"$tmp/docs.jsonl")
docs=$(wc -l <"$tmp/docs.jsonl")

now() { date +%s%N; }

# cpu_ms FILE: the children's user + system CPU time in ms in FILE, the
# output of the shell's builtin times (run in the shell itself, never in a
# $(...) subshell, which would see only its own children).
cpu_ms() {
	awk 'NR == 2 {
		n = split($0, f, /[ms \t]+/); t = 0
		for (i = 1; i + 1 <= n; i += 2) if (f[i] != "") t += f[i] * 60 + f[i + 1]
		printf "%d\n", t * 1000 }' "$1"
}

# measure NAME CMD...: run CMD once (rm kb* before); keep the best wall
# time and the best CPU time in ms in best_NAME and bestcpu_NAME.
measure() {
	name=$1
	shift
	rm -f "$tmp"/kb*
	times >"$tmp/times0"
	t0=$(now)
	"$@"
	t1=$(now)
	times >"$tmp/times1"
	ms=$(( (t1 - t0) / 1000000 ))
	cpu=$(( $(cpu_ms "$tmp/times1") - $(cpu_ms "$tmp/times0") ))
	eval "b=\${best_$name:-} bc=\${bestcpu_$name:-}"
	if [ -z "$b" ] || [ "$ms" -lt "$b" ]; then eval "best_$name=$ms"; fi
	if [ -z "$bc" ] || [ "$cpu" -lt "$bc" ]; then eval "bestcpu_$name=$cpu"; fi
}

run_ingest() { "$bin/ev-ingest" --db "$tmp/kb.db" "$tmp/docs.jsonl" >/dev/null; }

run_peer() {
	sqlite3 "$tmp/kb-peer.db" >/dev/null <<EOF
PRAGMA journal_mode=WAL;
CREATE TABLE raw(line TEXT);
CREATE VIRTUAL TABLE f USING fts5(title, text, tokenize='porter unicode61 remove_diacritics 2');
.mode ascii
.separator "$(printf '\037')" "\n"
.import $tmp/docs.jsonl raw
BEGIN;
INSERT INTO f(title, text) SELECT json_extract(line, '\$.title'), json_extract(line, '\$.text') FROM raw;
COMMIT;
EOF
}

i=0
while [ $i -lt "$RUNS" ]; do
	measure ingest run_ingest
	measure peer run_peer
	i=$((i + 1))
done
ingest_ms=$best_ingest ingest_cpu=$bestcpu_ingest
peer_ms=$best_peer peer_cpu=$bestcpu_peer
run_ingest
t0=$(now)
"$bin/ev-ingest" --db "$tmp/kb.db" "$tmp/docs.jsonl" >/dev/null
t1=$(now)
rerun_ms=$(( (t1 - t0) / 1000000 ))
chunks=$(sqlite3 "$tmp/kb.db" "SELECT count(*) FROM chunks")

$py - "$what" "$docs" "$bytes" "$chunks" "$ingest_ms" "$peer_ms" "$rerun_ms" "$ingest_cpu" \
    "$peer_cpu" <<'EOF'
import sys
what, docs, size, chunks, ing, peer, rerun, ingcpu, peercpu = sys.argv[1], *map(int, sys.argv[2:])
mb = size / 1e6
print("corpus: %s: %d documents, %.1f MB of JSON Lines, %d chunks" % (what, docs, mb, chunks))
print("%-44s %8s %8s %10s" % ("", "ms", "MB/s", "docs/s"))
for name, ms in (("ev-ingest (chunks + FTS5 + documents)", ing),
                 ("sqlite3 shell: .import + FTS5 insert", peer),
                 ("ev-ingest again, store unchanged", rerun)):
    print("%-44s %8d %8.1f %10.0f" % (name, ms, mb / (ms / 1e3), docs / (ms / 1e3)))
ratio = peer / ing
print("ev-ingest / sqlite3 speed: %.2f (target >= 0.70): %s" % (ratio, "ok" if ratio >= 0.7 else "BELOW TARGET"))
print("CPU time (user + system), ms: ev-ingest %d, sqlite3 %d: ev-ingest / sqlite3 speed %.2f"
      % (ingcpu, peercpu, peercpu / ingcpu if ingcpu > 0 else 0))
EOF
