#!/usr/bin/python3
"""bench-scale.py TOP BIN WORK DOCS QUERIES SEED PEERS REUSE VECTORS: the body of
scripts/bench-scale.sh (read its header): corpus, stages, per-query
latencies, and the table."""
import glob
import gzip
import hashlib
import json
import os
import random
import re
import resource
import shutil
import sqlite3
import statistics
import subprocess
import sys
import time

top, bindir, work = sys.argv[1], sys.argv[2], sys.argv[3]
ndocs, nqueries, seed, peers, reuse, vectors = (int(a) for a in sys.argv[4:10])
shared = os.path.join(top, "..", "shared", "data")
db = os.path.join(work, "kb.db")
index = os.path.join(work, "kb.faiss")
rows = []		# (stage, evkit, peer, target, verdict)


def ev(name):
    return os.path.join(bindir, name)


def say(msg):
    print("bench-scale: " + msg, file=sys.stderr, flush=True)


# ---- the corpus ------------------------------------------------------------

SENT = re.compile(r"(?<=[.!?])\s+")


def sentences_of(text):
    for s in SENT.split(text):
        s = " ".join(s.split())
        if 30 <= len(s) <= 400 and sum(c.isalpha() for c in s) > len(s) / 2:
            yield s


def pool_and_queries():
    """The sentence pool, its sources, and the collections' queries."""
    pool, seen, used, queries = [], set(), [], []

    def add(text):
        for s in sentences_of(text):
            if s not in seen:
                seen.add(s)
                pool.append(s)

    if os.path.isdir(shared):
        for name in ("cranfield/jsonl", "med", "cacm", "npl"):
            d = os.path.join(shared, name)
            if not os.path.exists(os.path.join(d, "corpus.jsonl")):
                continue
            used.append(os.path.relpath(d, os.path.join(top, "..")))
            with open(os.path.join(d, "corpus.jsonl")) as f:
                for line in f:
                    r = json.loads(line)
                    add(r.get("title", "") + ". " + r.get("text", ""))
            with open(os.path.join(d, "queries.jsonl")) as f:
                queries += [json.loads(line)["query"] for line in f]
    else:
        say("no test collections at %s: the corpus is made of samples/ and /usr/share/doc"
            " alone" % os.path.normpath(shared))
    for path in sorted(glob.glob(os.path.join(top, "samples", "**", "*"), recursive=True)):
        if path.endswith((".md", ".txt")):
            with open(path, errors="replace") as f:
                add(f.read())
    used.append("samples/")
    for path in sorted(glob.glob("/usr/share/doc/**/*", recursive=True)):
        if not os.path.isfile(path) or os.path.islink(path):
            continue
        try:
            if path.endswith(".gz"):
                with gzip.open(path, "rt", errors="replace") as f:
                    add(f.read(1 << 20))
            elif path.endswith((".txt", ".md")) or os.path.basename(path).startswith("README"):
                with open(path, errors="replace") as f:
                    add(f.read(1 << 20))
        except (OSError, EOFError, UnicodeError):
            continue
    used.append("/usr/share/doc")
    return pool, used, queries


def make_corpus():
    docs = os.path.join(work, "docs.jsonl")
    qfile = os.path.join(work, "queries.jsonl")
    stamp = os.path.join(work, "corpus.stamp")
    want = "%d %d %d" % (ndocs, nqueries, seed)
    if os.path.exists(stamp):
        had = open(stamp).read().split("\n")
        d, q, s = (int(x) for x in had[0].split())
        if d == ndocs and s == seed and q >= nqueries:	# the first nqueries are used
            say("corpus: reusing %s (%s)" % (docs, had[1]))
            return docs, qfile, had[1]
    pool, used, cq = pool_and_queries()
    digest = hashlib.sha256("\n".join(pool).encode()).hexdigest()[:16]
    rng = random.Random(seed)
    with open(docs, "w") as out:
        for i in range(ndocs):
            want_len = rng.randint(300, 2000)
            parts, n = [], 0
            while n < want_len:
                s = pool[rng.randrange(len(pool))]
                parts.append(s)
                n += len(s) + 1
            # paragraphs of 1-5 sentences
            text, j = [], 0
            while j < len(parts):
                m = rng.randint(1, 5)
                text.append(" ".join(parts[j:j + m]))
                j += m
            title = " ".join(pool[rng.randrange(len(pool))].split()[:rng.randint(4, 10)])
            out.write(json.dumps({"id": "d%07d" % i, "title": title.rstrip(".,;:"),
                                  "text": "\n\n".join(text)}) + "\n")
    qs = []
    for q in cq:
        w = q.split()
        if len(w) >= 10:
            qs.append(" ".join(w[:20]))
    qrng = random.Random(seed + 1)
    qrng.shuffle(qs)
    while len(qs) < nqueries:
        w = pool[qrng.randrange(len(pool))].split()
        if len(w) >= 10:
            qs.append(" ".join(w[:20]))
    with open(qfile, "w") as out:
        for i, q in enumerate(qs[:nqueries]):
            out.write(json.dumps({"query_id": "q%d" % (i + 1), "query": q}) + "\n")
    info = "%d sentences from %s, sha256 %s" % (len(pool), ", ".join(used), digest)
    with open(stamp, "w") as f:
        f.write(want + "\n" + info + "\n")
    return docs, qfile, info


# ---- measuring -------------------------------------------------------------

def run(cmd, stdin=None, stdout=None):
    """Run cmd; return (wall s, CPU s, peak RSS MB).  Fails loudly.  The
    peak comes from GNU time, a small process: Linux keeps a process's peak
    across exec, so a child forked from this script would count the
    script's own memory."""
    fin = open(stdin, "rb") if stdin else subprocess.DEVNULL
    fout = open(stdout, "wb") if stdout else subprocess.DEVNULL
    rss = os.path.join(work, "rss.txt")
    t0 = time.monotonic()
    p = subprocess.Popen(["/usr/bin/time", "-f", "%M", "-o", rss] + cmd, stdin=fin, stdout=fout)
    _, status, ru = os.wait4(p.pid, 0)
    wall = time.monotonic() - t0
    for f in (fin, fout):
        if f is not subprocess.DEVNULL:
            f.close()
    if status != 0:
        sys.exit("bench-scale: %s failed (status %d)" % (" ".join(cmd), status))
    with open(rss) as f:
        peak = int(f.read().split()[-1]) / 1024.0
    return wall, ru.ru_utime + ru.ru_stime, peak


def row(stage, ours, peer, target, ok):
    r = (stage, ours, peer, target, "-" if ok is None else ("ok" if ok else "MISSED"))
    rows.append(r)
    say("  ".join(c for c in r if c))	# each figure as soon as it is measured


def fts_peer(docs):
    """The corpus loaded raw into an FTS5 table by Python's sqlite3."""
    path = os.path.join(work, "peer-fts.db")
    for p in glob.glob(path + "*"):
        os.unlink(p)
    t0 = time.monotonic()
    c = sqlite3.connect(path)
    c.execute("PRAGMA journal_mode=WAL")
    c.execute("CREATE VIRTUAL TABLE f USING fts5(title, text,"
              " tokenize='porter unicode61 remove_diacritics 2')")
    with open(docs) as f:
        batch = []
        for line in f:
            r = json.loads(line)
            batch.append((r.get("title"), r["text"]))
            if len(batch) == 10000:
                c.executemany("INSERT INTO f(title, text) VALUES (?, ?)", batch)
                batch = []
        c.executemany("INSERT INTO f(title, text) VALUES (?, ?)", batch)
    c.commit()
    c.close()
    wall = time.monotonic() - t0
    for p in glob.glob(path + "*"):
        os.unlink(p)
    return wall


def pct(xs, p):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(p / 100.0 * (len(xs) - 1))))]


def raw_sql(q):
    words = re.findall(r"\w+", q.lower())
    expr = " OR ".join('"%s"' % w for w in words).replace("'", "''")
    return (".output /dev/null\nSELECT rowid, snippet(chunks_fts, 2, '\u00ab', '\u00bb', '\u2026', 32)"
            " FROM chunks_fts WHERE chunks_fts MATCH '%s' ORDER BY rank LIMIT 100;\n" % expr)


FAISS_PEER = r"""
import sys, json, faiss, numpy as np
idx = faiss.read_index(sys.argv[1])
q = json.loads(sys.stdin.readline())
v = np.array([q["vector"]], dtype="float32")
D, I = idx.search(v, 100)
for d, i in zip(D[0], I[0]):
    print(json.dumps({"query_id": q["query_id"], "rowid": int(i), "score": float(d)}))
"""


def latency(systems, queries):
    """Each query run alone by each system in turn; per system, the wall
    times in ms."""
    times = {name: [] for name, _ in systems}
    for i, q in enumerate(queries):
        for name, make in systems:
            cmd, data = make(q)
            t0 = time.monotonic()
            p = subprocess.run(cmd, input=data, stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE)
            t = (time.monotonic() - t0) * 1000.0
            if p.returncode != 0:
                sys.exit("bench-scale: %s failed on query %d: %s" %
                         (name, i + 1, p.stderr.decode(errors="replace").strip()))
            times[name].append(t)
    return times


def main():
    os.makedirs(work, exist_ok=True)
    docs, qfile, info = make_corpus()
    size = os.path.getsize(docs)
    mb = size / 1e6
    queries = [json.loads(line) for line in open(qfile)][:nqueries]
    say("corpus: %d documents, %.1f MB; %s" % (ndocs, mb, info))

    if not (reuse and os.path.exists(db)):
        for p in glob.glob(db + "*") + glob.glob(index + "*"):
            os.unlink(p)
        say("ingest")
        w, c, m = run([ev("ev-ingest"), "--db", db, "--quiet", "--no-postings", docs])
        peer = None
        if peers:
            say("peer: Python's sqlite3 loading the text raw into FTS5")
            peer = fts_peer(docs)
        row("ingest (MB/s of JSON Lines)",
            "%.1f MB/s (%.0f s; CPU %.0f s: %.1f MB/s; %.0f MB peak)" % (mb / w, w, c, mb / c, m),
            "%.1f MB/s (%.0f s)" % (mb / peer, peer) if peer else "", ">= 12 MB/s", mb / w >= 12)
        say("postings file")
        w, c, m = run([ev("ev-ingest"), "--db", db, "--postings"])
        row("postings file (ev-ingest --postings)", "%.0f s (CPU %.0f s), %.0f MB peak, %.0f MB" %
            (w, c, m, os.path.getsize(db + ".postings") / 1e6), "", "", None)
        say("re-ingest, unchanged")
        w, c, m = run([ev("ev-ingest"), "--db", db, docs])
        row("re-ingest, unchanged", "%.1f s (CPU %.1f s)" % (w, c), "", "< 15 s", w < 15)
        w, c, m = run([ev("ev-ingest"), "--db", db, "--all", docs])
        row("re-ingest, unchanged, --all", "%.1f s (CPU %.1f s)" % (w, c), "", "", None)
    if vectors and not (reuse and os.path.exists(index)):
        for p in glob.glob(index + "*"):
            os.unlink(p)
        say("train")
        w, c, m = run([ev("ev-embed"), "--db", db, "--train"])
        row("ev-embed --train", "%.0f s (CPU %.0f s), %.2f GB peak" % (w, c, m / 1024), "",
            "< 240 s, < 3 GB", w < 240 and m < 3072)
        say("embed")
        vec = os.path.join(work, "vectors.jsonl")
        w, c, m = run([ev("ev-embed"), "--db", db, "--pending"], stdout=vec)
        row("ev-embed, every chunk", "%.0f s (CPU %.0f s; %.1f GB of JSON)" %
            (w, c, os.path.getsize(vec) / 1e9), "", "< 600 s", w < 600)
        say("load")
        w, c, m = run([ev("ev-embed-load"), "--db", db, "--index", index, vec])
        os.unlink(vec)
        with open(index, "rb") as f:
            f.readline()
            head = json.loads(f.readline())
        row("ev-embed-load (%s)" % head["factory"], "%.0f s (CPU %.0f s), %.2f GB peak" %
            (w, c, m / 1024), "", "< 600 s", w < 600)
    con = sqlite3.connect(db)
    nchunks = con.execute("SELECT count(*) FROM chunks").fetchone()[0]

    # Query vectors, once.
    qvec = os.path.join(work, "queries.vec.jsonl")
    qv, faiss = [], None
    if vectors:
        run([ev("ev-embed"), "--db", db, "--role", "query", qfile], stdout=qvec)
        qv = [line for line in open(qvec, "rb")]
        # recall@10 of the index against exact search over the stored vectors.
        plain = os.path.join(work, "plain.faiss")
        with open(index, "rb") as f, open(plain, "wb") as out:
            f.readline()
            f.readline()
            shutil.copyfileobj(f, out)
        try:
            import numpy as np
            import faiss
        except ImportError:
            say("python3-faiss is not installed: no recall figure and no vector peer")
    if faiss is not None:
        say("recall@10 against exact search")
        ids, vecs = [], []
        for rid, blob in con.execute("SELECT rowid, vector FROM vec_vectors ORDER BY rowid"):
            ids.append(rid)
            vecs.append(blob)
        dim = len(vecs[0]) // 4
        x = np.frombuffer(b"".join(vecs), dtype="float32").reshape(-1, dim)
        del vecs
        flat = faiss.IndexFlatIP(dim)
        flat.add(x)
        qs = np.array([json.loads(line)["vector"] for line in qv], dtype="float32")
        _, exact = flat.search(qs, 10)
        del flat, x
        ids = np.array(ids)
        hits = subprocess.run([ev("ev-search-vec"), "--db", db, "--index", index, "-k", "10",
                               "--no-snippet", qvec], stdout=subprocess.PIPE, check=True).stdout
        got = {}
        rowid_of = {}
        for line in hits.splitlines():
            h = json.loads(line)
            got.setdefault(h["query_id"], []).append(h["id"])
        for cid, rid in con.execute("SELECT id, rowid FROM chunks"):
            rowid_of[cid] = rid
        rec = []
        for i, line in enumerate(qv):
            qid = json.loads(line)["query_id"]
            truth = set(int(ids[j]) for j in exact[i] if j >= 0)
            mine = set(rowid_of[c] for c in got.get(qid, []))
            rec.append(len(truth & mine) / max(1, len(truth)))
        r10 = statistics.mean(rec)
        row("vector recall@10 vs exact", "%.3f" % r10, "", ">= 0.95", r10 >= 0.95)

    say("latency: %d queries, one process each" % len(queries))
    plan = os.path.join(top, "samples", "plan.yaml")
    systems = [
        ("ev-search-text", lambda q: ([ev("ev-search-text"), "--db", db, "-k", "100"],
                                      json.dumps(q).encode())),
        ("ev-search-text --feedback 0 --proximity 0",
         lambda q: ([ev("ev-search-text"), "--db", db, "-k", "100", "--feedback", "0",
                     "--proximity", "0"], json.dumps(q).encode())),
    ]
    systems.append(("ev-search-text --exhaustive (FTS5, no pruning)",
                    lambda q: ([ev("ev-search-text"), "--db", db, "-k", "100", "--exhaustive"],
                               json.dumps(q).encode())))
    if peers:
        systems.append(("sqlite3 shell, bm25() + snippet()",
                        lambda q: (["sqlite3", "-batch", "-bail", "-cmd", ".load " + ev("evkit_fts5"), db],
                                   raw_sql(q["query"]).encode())))
    byid = {json.loads(line)["query_id"]: line for line in qv}
    if vectors:
        systems.append(("ev-search-vec",
                        lambda q: ([ev("ev-search-vec"), "--db", db, "--index", index, "-k", "100"],
                                   byid[q["query_id"]])))
    if peers and faiss is not None:
        systems.append(("python3-faiss (read_index, search)",
                        lambda q: (["/usr/bin/python3", "-c", FAISS_PEER, plain],
                                   byid[q["query_id"]])))
    if vectors:
        systems.append(("scripts/ev-hybrid",
                        lambda q: ([os.path.join(top, "scripts", "ev-hybrid"), "--db", db,
                                    "--index", index, "--plan", plan, q["query"]], None)))
    t = latency(systems, queries)
    peer_of = {"ev-search-text": "sqlite3 shell, bm25() + snippet()",
               "ev-search-vec": "python3-faiss (read_index, search)"}
    target = {"ev-search-text": ("p50 < 50, p95 < 200 ms", lambda a, b: a < 50 and b < 200),
              "ev-search-vec": ("p50 < 20 ms", lambda a, b: a < 20),
              "scripts/ev-hybrid": ("p50 < 150 ms", lambda a, b: a < 150)}
    for name, xs in t.items():
        if name in peer_of.values():
            continue
        a, b = pct(xs, 50), pct(xs, 95)
        pn = peer_of.get(name.split(" ")[0])
        peer = ""
        if pn in t:
            peer = "%s: p50 %.0f, p95 %.0f ms" % (pn, pct(t[pn], 50), pct(t[pn], 95))
        tg, ok = target.get(name, ("", None))
        row(name, "p50 %.0f, p95 %.0f ms" % (a, b), peer, tg, ok(a, b) if ok else None)

    print("bench-scale: %d documents (%.1f MB of JSON Lines), %d chunks, %d queries of 10-20 words,"
          " k=100" % (ndocs, mb, nchunks, len(queries)))
    print("corpus: " + info)
    w = [max(len(r[i]) for r in rows + [("stage", "evkit", "peer, same run", "target", "")])
         for i in range(5)]
    for r in [("stage", "evkit", "peer, same run", "target", "")] + rows:
        print("  ".join(c.ljust(w[i]) for i, c in enumerate(r)).rstrip())


main()
