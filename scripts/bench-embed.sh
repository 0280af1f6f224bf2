#!/bin/sh
# bench-embed.sh BIN: the built-in embedder, and a numpy peer in the same run.
#
#  1. ev-embed --train on N synthetic chunks (default 100,000; BENCH_EMBED_CHUNKS):
#     wall time, CPU time and peak memory (target: under 2 minutes on 2 cores).
#  2. Side by side on the first P of them (default 20,000; BENCH_EMBED_PEER_CHUNKS;
#     the peer needs far more memory and time): ev-embed --train against a numpy
#     implementation of the same model (tf-idf, randomised SVD with QR at each
#     step, 256 dimensions) reading the same chunks from a store.
#  3. Embedding throughput, records/s: the P chunk records (documents) and 10,000
#     short queries through ev-embed and through the numpy peer doing the same job
#     (JSON Lines in, records with "vector" out).
# The synthetic corpus: 200 topics over a Zipfian vocabulary of 40,000 made-up
# words, 60-120 words a chunk (fixed seed).  Uses /usr/bin/python3 (Debian's,
# with numpy).  Note: OpenBLAS 0.3.21 may not recognise a new CPU and fall back
# to slow generic kernels; OPENBLAS_CORETYPE=Haswell (or SkylakeX) fixes that,
# for both sides alike.
set -u
bin=$(cd "${1:?usage: bench-embed.sh BIN}" && pwd)
n=${BENCH_EMBED_CHUNKS:-100000}
p=${BENCH_EMBED_PEER_CHUNKS:-20000}
[ "$p" -le "$n" ] || p=$n
py=/usr/bin/python3
tmp=$(mktemp -d "${TMPDIR:-/tmp}/bench-embed.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
cd "$tmp" || exit 1

cat > gen.py <<'EOF'
import json, random, sys
n = int(sys.argv[1]); rng = random.Random(1)
syl = ["ka", "lo", "mi", "ne", "ru", "ta", "shi", "vo", "pe", "da", "gu", "ze", "bri", "ton", "mar", "fel"]
words = set()
while len(words) < 40000:
    words.add("".join(rng.choice(syl) for _ in range(rng.randint(2, 4))))
words = sorted(words); rng.shuffle(words)
topics = [rng.sample(range(len(words)), 300) for _ in range(200)]
out = sys.stdout
for d in range(n):
    t = rng.sample(topics, 2)
    body = []
    for _ in range(rng.randint(60, 120)):
        r = rng.random()
        if r < 0.5:
            body.append(words[rng.choice(t[0] if r < 0.35 else t[1])])
        else:
            body.append(words[min(int(rng.paretovariate(1.0)) - 1, len(words) - 1)])
    out.write(json.dumps({"id": "s%d" % d, "title": " ".join(body[:5]), "text": " ".join(body)}) + "\n")
EOF

cat > peer.py <<'EOF'
# The same model in numpy: train DB OUT.npz | embed OUT.npz < records > records
import json, math, re, sqlite3, sys, time
import numpy as np
word = re.compile(r"\w+")
def tokens(s):
    return [w for w in word.findall(s.lower()) if len(w) <= 64]
def spmm(ptr, idx, val, x, rows):
    # (rows × n sparse) @ x, in row blocks
    y = np.zeros((rows, x.shape[1]))
    step = 4096
    for r0 in range(0, rows, step):
        r1 = min(rows, r0 + step)
        a, b = ptr[r0], ptr[r1]
        if a == b:
            continue
        contrib = val[a:b, None] * x[idx[a:b]]
        cnt = np.diff(ptr[r0:r1 + 1])
        nz = cnt > 0
        starts = (ptr[r0:r1] - a)[nz]
        y[r0:r1][nz] = np.add.reduceat(contrib, starts, axis=0)
    return y
def train(db, out, dim=256, over=10, iters=3, min_df=2):
    con = sqlite3.connect(db)
    vocab, df, docs = {}, [], []
    for title, st, text in con.execute("SELECT title, section_title, text FROM chunks ORDER BY rowid"):
        tf = {}
        for w in tokens(" ".join(x or "" for x in (title, st, text))):
            j = vocab.setdefault(w, len(vocab))
            if j == len(df): df.append(0)
            tf[j] = tf.get(j, 0) + 1
        for j in tf: df[j] += 1
        docs.append(tf)
    N = len(docs); df = np.array(df)
    keep = np.where(df >= min_df)[0]
    col = -np.ones(len(df), dtype=np.int64); col[keep] = np.arange(len(keep))
    idf = np.log((1 + N) / (1 + df[keep])) + 1
    ptr, idx, val = [0], [], []
    for tf in docs:
        row = [(col[j], (1 + math.log(c)) * idf[col[j]]) for j, c in tf.items() if col[j] >= 0]
        nrm = math.sqrt(sum(w * w for _, w in row)) or 1
        idx += [c for c, _ in row]; val += [w / nrm for _, w in row]; ptr.append(len(idx))
    ptr = np.array(ptr); idx = np.array(idx); val = np.array(val)
    order = np.argsort(idx, kind="stable")
    cptr = np.concatenate([[0], np.cumsum(np.bincount(idx, minlength=len(keep)))])
    rows_of = np.repeat(np.arange(N), np.diff(ptr))
    cidx = rows_of[order]; cval = val[order]
    m, n = N, len(keep); l = min(dim + over, m, n)
    q, _ = np.linalg.qr(spmm(ptr, idx, val, np.random.default_rng(0).standard_normal((n, l)), m))
    for _ in range(iters):
        z, _ = np.linalg.qr(spmm(cptr, cidx, cval, q, n))
        q, _ = np.linalg.qr(spmm(ptr, idx, val, z, m))
    bt = spmm(cptr, cidx, cval, q, n)
    q2, r = np.linalg.qr(bt)
    ur, s, _ = np.linalg.svd(r)
    v = (q2 @ ur)[:, :dim] * s[:dim] ** 0.5
    terms = np.array(sorted(vocab, key=vocab.get))[keep]
    np.savez(out, terms=terms, idf=idf, proj=v.astype(np.float32))
def embed(model):
    z = np.load(model)
    look = {t: i for i, t in enumerate(z["terms"].tolist())}
    idf, proj = z["idf"], z["proj"]
    for line in sys.stdin:
        r = json.loads(line)
        q = "query" in r and "text" not in r
        text = r["query"] if q else " ".join(r.get(k) or "" for k in ("title", "section_title", "text"))
        tf = {}
        for w in tokens(text):
            j = look.get(w)
            if j is not None: tf[j] = tf.get(j, 0) + 1
        x = np.zeros(proj.shape[1])
        for j, c in tf.items():
            x += (1 + math.log(c)) * idf[j] ** (1.5 if q else 1) * proj[j]
        nrm = np.linalg.norm(x)
        r["vector"] = [float(round(f, 10)) for f in (x / nrm if nrm else x)]
        r["model"] = "peer"
        sys.stdout.write(json.dumps(r, separators=(",", ":")) + "\n")
if sys.argv[1] == "train":
    train(sys.argv[2], sys.argv[3])
else:
    embed(sys.argv[2])
EOF

printf 'corpus: %d synthetic chunks\n' "$n"
"$py" gen.py "$n" > docs.jsonl || exit 1
"$bin/ev-ingest" --db kb.db --quiet docs.jsonl || exit 1
head -n "$p" docs.jsonl > docs-p.jsonl
"$bin/ev-ingest" --db kp.db docs-p.jsonl > chunks.jsonl || exit 1
"$py" -c '
import json
for i, line in enumerate(open("docs.jsonl")):
    if i == 10000: break
    w = json.loads(line)["text"].split()
    print(json.dumps({"query_id": i + 1, "query": " ".join(w[i % 50: i % 50 + 6])}))
' > queries.jsonl

# "WALL USER+SYS MAXRSS_KB" of a command
measure() {
	/usr/bin/time -f '%e %U %S %M' -o t.txt "$@" > cmd.out || { echo "bench-embed: '$*' failed" >&2; exit 1; }
	awk '{ w = $1 < 0.01 ? 0.01 : $1; c = $2 + $3 < 0.01 ? 0.01 : $2 + $3
		printf "%.2f %.2f %d\n", w, c, $4 }' t.txt
}

set -- $(measure "$bin/ev-embed" --db kb.db --train --dim 256)
printf '\ntrain, %d chunks, 256 dimensions: %s s wall, %s s cpu, %d MB peak\n' "$n" "$1" "$2" "$(($3 / 1024))"
sed 's/^/  /' cmd.out

set -- $(measure "$bin/ev-embed" --db kp.db --train --dim 256)
ev_wall=$1 ev_cpu=$2 ev_kb=$3
set -- $(measure "$py" peer.py train kp.db peer.npz)
py_wall=$1 py_cpu=$2 py_kb=$3
printf '\ntrain, %d chunks, 256 dimensions     wall s   cpu s   peak MB\n' "$p"
printf '  ev-embed --train                 %7.1f %7.1f %9d\n' "$ev_wall" "$ev_cpu" "$((ev_kb / 1024))"
printf '  numpy peer                       %7.1f %7.1f %9d\n' "$py_wall" "$py_cpu" "$((py_kb / 1024))"
printf '  ratio ev-embed / peer            %7.2f %7.2f %9.2f\n' \
	"$(echo "scale=4; $ev_wall / $py_wall" | bc)" "$(echo "scale=4; $ev_cpu / $py_cpu" | bc)" \
	"$(echo "scale=4; $ev_kb / $py_kb" | bc)"

rate() { echo "scale=0; $1 / $2" | bc; }
set -- $(measure sh -c "'$bin/ev-embed' --db kp.db < chunks.jsonl > out.jsonl")
ev_d=$1 ev_dc=$2
set -- $(measure sh -c "'$py' peer.py embed peer.npz < chunks.jsonl > peer.jsonl")
py_d=$1 py_dc=$2
set -- $(measure sh -c "'$bin/ev-embed' --db kp.db < queries.jsonl > outq.jsonl")
ev_q=$1 ev_qc=$2
set -- $(measure sh -c "'$py' peer.py embed peer.npz < queries.jsonl > peerq.jsonl")
py_q=$1 py_qc=$2
nd=$(wc -l < chunks.jsonl)
printf '\nembedding, records/s (by wall time; by cpu time)   ev-embed        numpy peer     ratio\n'
printf '  %6d documents (chunks)                    %7s;%7s  %7s;%7s  %5.2f;%5.2f\n' "$nd" \
	"$(rate "$nd" "$ev_d")" "$(rate "$nd" "$ev_dc")" "$(rate "$nd" "$py_d")" "$(rate "$nd" "$py_dc")" \
	"$(echo "scale=4; $py_d / $ev_d" | bc)" "$(echo "scale=4; $py_dc / $ev_dc" | bc)"
printf '  %6d queries                               %7s;%7s  %7s;%7s  %5.2f;%5.2f\n' 10000 \
	"$(rate 10000 "$ev_q")" "$(rate 10000 "$ev_qc")" "$(rate 10000 "$py_q")" "$(rate 10000 "$py_qc")" \
	"$(echo "scale=4; $py_q / $ev_q" | bc)" "$(echo "scale=4; $py_qc / $ev_qc" | bc)"
printf '  (the machine'"'"'s load average: %s)\n' "$(cut -d' ' -f1-3 /proc/loadavg)"
