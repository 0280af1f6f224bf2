#!/bin/sh
# bench-score.sh BIN: ev-score's throughput on 10,000 items of 10 citations of
# 200 words (and a 5-sentence answer), against a peer in the same run: the
# seed's method (keyword overlap, TF-IDF cosine) written plainly in Python,
# as seed 001's implementation was.  Words are drawn from the Cranfield
# collection when ../shared has it, else from a made-up vocabulary.
# Prints items/s and ms per item of each, and the ratio.
set -eu
bin=$(cd "${1:-bin}" && pwd)
top=$(cd "$(dirname "$0")/.." && pwd)
py=/usr/bin/python3
items=${EV_BENCH_ITEMS:-10000}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/bench-score.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM

"$py" - "$top/../shared/data/cranfield/cran.all.1400" "$items" >"$tmp/items.jsonl" <<'PY'
import json, random, re, sys
random.seed(7)
path, n = sys.argv[1], int(sys.argv[2])
try:
    words = re.findall(r"[a-z]+", open(path).read().lower())
except OSError:
    words = []
if len(words) < 1000:
    vocab = ["w%d" % i for i in range(5000)]
    words = [vocab[min(int(random.paretovariate(1.1)) - 1, 4999)] for _ in range(200000)]
def passage(k):
    i = random.randrange(len(words) - k)
    return " ".join(words[i:i + k])
for q in range(n):
    cites = [{"id": "d%d" % j, "text": passage(200)} for j in range(10)]
    answer = " ".join(passage(15).capitalize() + "." for _ in range(5))
    print(json.dumps({"query_id": q, "query": passage(8), "answer": answer, "citations": cites}))
PY

# The peer: seed 001's method in plain Python (regex words, stop list, no
# stemming, dict TF-IDF, max over pairs).
cat >"$tmp/peer.py" <<'PY'
import json, math, re, sys, itertools
STOP = set("a about above after again against all also am an and any are as at be because been before being below between both but by can could did do does doing down during each either etc few for from further had has have having he her here hers herself him himself his how however i if in into is it its itself just may me might more most must my myself no nor not of off on once only or other ought our ours ourselves out over own same shall she should so some such than that the their theirs them themselves then there these they this those through thus to too under until up upon us very was we were what when where whether which while who whom whose why will with within without would yet you your yours yourself yourselves".split())
WORD = re.compile(r"\w+")
def terms(s):
    return [w for w in WORD.findall(s.lower()) if w not in STOP]
out = sys.stdout
for line in sys.stdin:
    r = json.loads(line)
    texts = [c["text"] for c in r["citations"]]
    ct = [terms(t) for t in texts]
    allc = set().union(*map(set, ct)) if ct else set()
    claims = [c for c in re.split(r"(?<=[.!?])\s+", r["answer"]) if c.strip()]
    sup = []
    for c in claims:
        t = set(terms(c))
        if t:
            sup.append(len(t & allc) / len(t))
    faith = sum(sup) / len(sup) if sup else 0.0
    q = set(terms(r["query"]))
    cov = len(q & allc) / len(q) if q else 0.0
    df = {}
    for t in ct:
        for w in set(t):
            df[w] = df.get(w, 0) + 1
    n = len(ct)
    vecs = []
    for t in ct:
        tf = {}
        for w in t:
            tf[w] = tf.get(w, 0) + 1
        v = {w: c * (1 + math.log((1 + n) / (1 + df[w]))) for w, c in tf.items()}
        vecs.append((v, math.sqrt(sum(x * x for x in v.values()))))
    red = 0.0
    for (a, na), (b, nb) in itertools.combinations(vecs, 2):
        d = sum(x * b.get(w, 0) for w, x in a.items())
        if na and nb:
            red = max(red, d / (na * nb))
    out.write(json.dumps({"query_id": r["query_id"], "faithfulness": faith, "coverage": cov,
        "redundancy": red, "overall": 0.4 * faith + 0.4 * cov + 0.2 * (1 - red)}) + "\n")
PY

# Wall time, and CPU time (user + system) from wait4(): the machines are
# shared, so CPU time is the steadier figure for "ms per item on one core".
"$py" - "$bin/ev-score" "$tmp" "$items" <<'PY'
import os, sys, time
ev, tmp, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
def run(argv, out, err):
    t = time.monotonic()
    pid = os.fork()
    if pid == 0:
        fd = os.open(tmp + "/items.jsonl", os.O_RDONLY); os.dup2(fd, 0)
        fd = os.open(out, os.O_WRONLY | os.O_CREAT | os.O_TRUNC); os.dup2(fd, 1)
        fd = os.open(err, os.O_WRONLY | os.O_CREAT | os.O_TRUNC); os.dup2(fd, 2)
        os.execv(argv[0], argv)
    _, status, ru = os.wait4(pid, 0)
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit("bench-score: %s failed: %s" % (argv[0], open(err).read()[-500:]))
    return time.monotonic() - t, ru.ru_utime + ru.ru_stime
ew, ec = run([ev], tmp + "/ev.out", tmp + "/ev.err")
pw, pc = run([sys.executable, tmp + "/peer.py"], tmp + "/peer.out", tmp + "/peer.err")
got = sum(1 for _ in open(tmp + "/ev.out"))
if got != n:
    sys.exit("bench-score: ev-score wrote %d records, expected %d" % (got, n))
size = os.path.getsize(tmp + "/items.jsonl")
print("items: %d (10 citations of 200 words and a 5-sentence answer each, %.1f MB)" % (n, size / 1e6))
print("%-22s %10s %12s %12s" % ("", "items/s", "ms/item", "CPU ms/item"))
print("%-22s %10.0f %12.3f %12.3f" % ("ev-score", n / ew, ew * 1e3 / n, ec * 1e3 / n))
print("%-22s %10.0f %12.3f %12.3f" % ("peer (python, seed)", n / pw, pw * 1e3 / n, pc * 1e3 / n))
print("ev-score: %.1fx the peer's throughput, %.1fx less CPU per item" % (pw / ew, pc / ec))
PY
