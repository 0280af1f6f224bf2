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
corpus = sys.argv[10] if len(sys.argv) > 10 else ""
shared = os.path.join(top, "..", "shared", "data")
db = os.path.join(work, "kb.db")
index = os.path.join(work, "kb.faiss")
xdb = os.path.join(work, "xapian.db")
rows = []		# (stage, evkit, peer, target, verdict)
# TIME_ONLY=1: time WORK's store as it is (time_only()); BEFORE=BINDIR:
# another evkit's ev-search-text timed beside this one's.
time_only_mode = os.environ.get("TIME_ONLY", "0") == "1"
# FULL=0: leave out the two slowest systems of the latency run, the text
# lane --exhaustive and the sqlite3 shell (seconds a query at 1 M).
full_run = os.environ.get("FULL", "1") != "0"
before = os.environ.get("BEFORE", "")
# XAPIAN=0: leave Xapian out (its indexing, and quest in the latency runs);
# BUILD_ONLY=1: time the stages that build (the ingest and its peers, the
# vector stages) and stop before the latency runs.
xapian_on = os.environ.get("XAPIAN", "1") != "0"
build_only = os.environ.get("BUILD_ONLY", "0") == "1"
BEFORE_NAME = "ev-search-text of BEFORE"
# The query sets drawn from, as written; AILA's case descriptions (198 to
# 1,023 words) are timed apart.
QUERY_SETS = ("cranfield/jsonl", "med", "cacm", "npl", "time", "cf")
LONG_SET = "aila"


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


def pool():
    """The sentence pool and its sources."""
    pool, seen, used = [], set(), []

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
    return pool, used


def read_queries(name):
    """The queries of one test collection, as written, ids prefixed with
    its name; [] when it is absent."""
    path = os.path.join(shared, name, "queries.jsonl")
    if not os.path.exists(path):
        return []
    tag = name.split("/")[0]
    with open(path) as f:
        return [{"query_id": "%s:%s" % (tag, r["query_id"]), "query": r["query"]}
                for r in map(json.loads, f)]


def write_queries():
    """queries.jsonl: QUERIES drawn with SEED from the test collections'
    query sets as written (topped up with sentences of the pool when they
    are absent or too few); long.jsonl: AILA's case descriptions, all."""
    every = []
    for name in QUERY_SETS:
        every += read_queries(name)
    qs = random.Random(seed).sample(every, min(nqueries, len(every)))
    if len(qs) < nqueries:
        say("%d queries from the test collections: %d sentences of the pool added"
            % (len(qs), nqueries - len(qs)))
        sentences, _ = pool()
        rng = random.Random(seed)
        while len(qs) < nqueries:
            w = sentences[rng.randrange(len(sentences))].split()
            if len(w) >= 10:
                qs.append({"query_id": "pool:%d" % (len(qs) + 1), "query": " ".join(w[:20])})
    for name, rs in (("queries.jsonl", qs), ("long.jsonl", read_queries(LONG_SET))):
        with open(os.path.join(work, name), "w") as out:
            for r in rs:
                out.write(json.dumps(r) + "\n")


def file_digest(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()[:16]


def make_corpus():
    """The documents (CORPUS, or DOCS generated with SEED), the queries,
    and a line saying what the corpus is."""
    write_queries()
    if corpus:
        return corpus, "%s, sha256 %s" % (corpus, file_digest(corpus))
    docs = os.path.join(work, "docs.jsonl")
    stamp = os.path.join(work, "corpus.stamp")
    want = "%d %d" % (ndocs, seed)
    if os.path.exists(stamp):
        had = open(stamp).read().split("\n")
        if had[0] == want:
            say("corpus: reusing %s (%s)" % (docs, had[1]))
            return docs, had[1]
    sentences, used = pool()
    digest = hashlib.sha256("\n".join(sentences).encode()).hexdigest()[:16]
    rng = random.Random(seed)
    with open(docs, "w") as out:
        for i in range(ndocs):
            want_len = rng.randint(300, 2000)
            parts, n = [], 0
            while n < want_len:
                s = sentences[rng.randrange(len(sentences))]
                parts.append(s)
                n += len(s) + 1
            # paragraphs of 1-5 sentences
            text, j = [], 0
            while j < len(parts):
                m = rng.randint(1, 5)
                text.append(" ".join(parts[j:j + m]))
                j += m
            title = " ".join(sentences[rng.randrange(len(sentences))].split()[:rng.randint(4, 10)])
            out.write(json.dumps({"id": "d%07d" % i, "title": title.rstrip(".,;:"),
                                  "text": "\n\n".join(text)}) + "\n")
    info = "generated: %d sentences from %s, sha256 %s" % (len(sentences), ", ".join(used), digest)
    with open(stamp, "w") as f:
        f.write(want + "\n" + info + "\n")
    return docs, info


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
    """The corpus loaded raw into an FTS5 table by Python's sqlite3: (wall s, CPU s)."""
    path = os.path.join(work, "peer-fts.db")
    for p in glob.glob(path + "*"):
        os.unlink(p)
    r0 = resource.getrusage(resource.RUSAGE_SELF)
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
    r1 = resource.getrusage(resource.RUSAGE_SELF)
    for p in glob.glob(path + "*"):
        os.unlink(p)
    return wall, r1.ru_utime + r1.ru_stime - r0.ru_utime - r0.ru_stime


def pct(xs, p):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(p / 100.0 * (len(xs) - 1))))]


def raw_sql(q):
    words = re.findall(r"\w+", q.lower())
    expr = " OR ".join('"%s"' % w for w in words).replace("'", "''")
    return (".output /dev/null\nSELECT rowid, snippet(chunks_fts, 2, '\u00ab', '\u00bb', '\u2026', 32)"
            " FROM chunks_fts WHERE chunks_fts MATCH '%s' ORDER BY rank LIMIT 100;\n" % expr)


# The peer maps the index's lists as ev-search-vec does (IO_FLAG_MMAP: an
# IVF index's lists are read from the page cache, not copied in).
FAISS_PEER = r"""
import sys, json, faiss, numpy as np
idx = faiss.read_index(sys.argv[1], faiss.IO_FLAG_MMAP)
q = json.loads(sys.stdin.readline())
v = np.array([q["vector"]], dtype="float32")
D, I = idx.search(v, 100)
for d, i in zip(D[0], I[0]):
    print(json.dumps({"query_id": q["query_id"], "rowid": int(i), "score": float(d)}))
"""


XAPIAN_INDEX = r"""
import json, sys, xapian
docs, path = sys.argv[1], sys.argv[2]
db = xapian.WritableDatabase(path, xapian.DB_CREATE_OR_OVERWRITE)
tg = xapian.TermGenerator()
tg.set_stemmer(xapian.Stem("english"))
for line in open(docs):
    r = json.loads(line)
    doc = xapian.Document()
    tg.set_document(doc)
    tg.index_text(r.get("title") or "")
    tg.increase_termpos()
    tg.index_text(r.get("text") or "")
    doc.set_data(r["id"])
    db.add_document(doc)
db.commit()
db.close()
"""


def disk_mb(*paths):
    """The bytes of these files, and of every file under these folders, in MB."""
    n = 0
    for p in paths:
        if os.path.isdir(p):
            n += sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(p) for f in fs)
        elif os.path.exists(p):
            n += os.path.getsize(p)
    return n / 1e6


def latency(systems, queries):
    """Each query run alone by each system in turn (the first of a turn
    changing from query to query: none is always the one that finds the
    page cache as another left it); per system, the wall and the CPU times
    in ms, and the queries it refused (a system that may refuse is named
    with a trailing '?': Xapian's query parser refuses some queries as
    written, e.g. 'NOT' in upper case)."""
    times = {name: ([], []) for name, _ in systems}
    refused = {name: 0 for name, _ in systems}
    for i, q in enumerate(queries):
        for name, make in systems[i % len(systems):] + systems[:i % len(systems)]:
            cmd, data = make(q)
            r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
            t0 = time.monotonic()
            p = subprocess.run(cmd, input=data, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
            t = (time.monotonic() - t0) * 1000.0
            r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
            if p.returncode != 0:
                if not name.endswith("?"):
                    sys.exit("bench-scale: %s failed on query %s: %s" %
                             (name, q["query_id"], p.stderr.decode(errors="replace").strip()))
                refused[name] += 1
            times[name][0].append(t)
            times[name][1].append((r1.ru_utime + r1.ru_stime - r0.ru_utime - r0.ru_stime) * 1000.0)
    return times, refused


def text_stages(docs, mb):
    """Ingest, the postings file, re-ingest; the peers' loading and indexing."""
    for p in glob.glob(db + "*") + glob.glob(index + "*"):
        os.unlink(p)
    # as a user runs it: one run, which makes the postings file at its end
    # (from the load's segments as they are, unmerged)
    say("ingest and its postings file")
    w, c, m = run([ev("ev-ingest"), "--db", db, "--quiet", docs])
    peer, ok = "", None
    if peers:
        say("peer: Python's sqlite3 loading the text raw into FTS5")
        fw, fc = fts_peer(docs)
        peer = "Python's sqlite3 into raw FTS5: %.1f MB/s (%.1f s; CPU %.1f s)" % (mb / fw, fw, fc)
        ok = w <= fw
    row("ingest and its postings file (MB/s of JSON Lines)",
        "%.1f MB/s (%.1f s; CPU %.1f s; %.0f MB peak)" % (mb / w, w, c, m), peer,
        "at least the peer's", ok)
    mine = "%.1f s, %.0f MB (the store %.0f, its postings file %.0f)" % (
        w, disk_mb(db, db + "-wal", db + ".postings"), disk_mb(db, db + "-wal"),
        disk_mb(db + ".postings"))
    xapian_peer(docs, mine)
    say("re-ingest, unchanged")
    w, c, m = run([ev("ev-ingest"), "--db", db, docs])
    row("re-ingest, unchanged", "%.1f s (CPU %.1f s)" % (w, c), "", "< 15 s", w < 15)
    w, c, m = run([ev("ev-ingest"), "--db", db, "--all", docs])
    row("re-ingest, unchanged, --all", "%.1f s (CPU %.1f s)" % (w, c), "", "", None)


def xapian_peer(docs, mine):
    """The same documents indexed by python3-xapian (English stemmer,
    positions, title and text), beside ev-ingest's time and size."""
    if not peers or not xapian_on:
        return
    try:
        subprocess.run(["/usr/bin/python3", "-c", "import xapian"], check=True,
                       stderr=subprocess.DEVNULL)
    except subprocess.CalledProcessError:
        say("python3-xapian is not installed (scripts/install-deps.sh): no Xapian peer")
        return
    say("peer: python3-xapian indexing the same documents")
    shutil.rmtree(xdb, ignore_errors=True)
    w, c, m = run(["/usr/bin/python3", "-c", XAPIAN_INDEX, docs, xdb])
    row("index: time and size on disk", mine, "python3-xapian: %.1f s (CPU %.1f s), %.0f MB"
        % (w, c, disk_mb(xdb)), "", None)


def vector_stages():
    """Training, embedding every chunk, loading the index."""
    for p in glob.glob(index + "*"):
        os.unlink(p)
    say("train")
    w, c, m = run([ev("ev-embed"), "--db", db, "--train"])
    row("ev-embed --train", "%.0f s (CPU %.0f s), %.2f GB peak" % (w, c, m / 1024), "",
        "< 240 s, < 3 GB", w < 240 and m < 3072)
    say("embed")
    vec = os.path.join(work, "vectors.jsonl")
    w, c, m = run([ev("ev-embed"), "--db", db, "--pending"], stdout=vec)
    kept = os.path.getsize(vec) == 0
    if kept:
        # a model trained again as it was keeps the store's vectors: the
        # load below builds the index from them, and no chunk is embedded
        row("ev-embed, every chunk", "none pending: the model trained is the store's own, its"
            " vectors kept", "", "< 600 s", None)
    else:
        row("ev-embed, every chunk", "%.0f s (CPU %.0f s; %.1f GB of JSON)" %
            (w, c, os.path.getsize(vec) / 1e9), "", "< 600 s", w < 600)
    say("load")
    w, c, m = run([ev("ev-embed-load"), "--db", db, "--index", index, vec])
    os.unlink(vec)
    with open(index, "rb") as f:
        f.readline()
        head = json.loads(f.readline())
    row("ev-embed-load (%s%s)" % (head["factory"], ", from the stored vectors" if kept else ""),
        "%.0f s (CPU %.0f s), %.2f GB peak" % (w, c, m / 1024), "", "< 600 s", w < 600)


def query_vectors(qfile, con):
    """The queries' vectors (lines, once), the plain Faiss index for the
    peer, and recall@10 of the index against exact search; (lines, plain
    index or None)."""
    qvec = os.path.join(work, "queries.vec.jsonl")
    run([ev("ev-embed"), "--db", db, "--role", "query", qfile], stdout=qvec)
    qv = [line for line in open(qvec, "rb")]
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
        return qv, None
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
    hits = subprocess.run([ev("ev-search-vec"), "--db", db, "--index", index, "-k", "10",
                           "--no-snippet", qvec], stdout=subprocess.PIPE, check=True).stdout
    got = {}
    for line in hits.splitlines():
        h = json.loads(line)
        got.setdefault(h["query_id"], []).append(h["id"])
    rowid_of = dict(con.execute("SELECT id, rowid FROM chunks"))
    rec = []
    for i, line in enumerate(qv):
        qid = json.loads(line)["query_id"]
        truth = set(ids[j] for j in exact[i] if j >= 0)
        mine = set(rowid_of[c] for c in got.get(qid, []))
        rec.append(len(truth & mine) / max(1, len(truth)))
    r10 = statistics.mean(rec)
    row("vector recall@10 vs exact", "%.3f" % r10, "", ">= 0.95", r10 >= 0.95)
    return qv, plain


def text_systems(long, full=True):
    """The text lane and its peers, as (name, make) pairs; for AILA's long
    queries (and unless full) only the text lane, BEFORE's and quest (FTS5
    takes minutes for each)."""
    def text(*extra, prog=ev("ev-search-text")):
        return lambda q: ([prog, "--db", db, "-k", "100"] + list(extra),
                          json.dumps(q).encode())
    systems = [("ev-search-text", text())]
    if before:
        systems.append((BEFORE_NAME, text(prog=os.path.join(before, "ev-search-text"))))
    if full and not long:
        systems.append(("ev-search-text --feedback 0 --proximity 0",
                        text("--feedback", "0", "--proximity", "0")))
        systems.append(("ev-search-text --exhaustive (FTS5, no pruning)", text("--exhaustive")))
    if peers and xapian_on and os.path.isdir(xdb):
        systems.append(("quest -m 100 -s english -o or?",
                        lambda q: (["quest", "-d", xdb, "-m", "100", "-s", "english", "-o", "or",
                                    q["query"]], None)))
    if peers and full and not long:
        systems.append(("sqlite3 shell, bm25() + snippet()",
                        lambda q: (["sqlite3", "-batch", "-bail", "-cmd",
                                    ".load " + ev("evkit_fts5"), db],
                                   raw_sql(q["query"]).encode())))
    return systems


def vector_systems(qfile, qv, plain):
    """The vector lane, the pipeline from a query's text, its peer and the
    whole hybrid script."""
    byid = {json.loads(line)["query_id"]: line for line in qv}
    plan = os.path.join(top, "samples", "plan.yaml")
    pipe = "'%s' --db '%s' --role query | '%s' --db '%s' --index '%s' -k 100" % (
        ev("ev-embed"), db, ev("ev-search-vec"), db, index)
    systems = [
        ("ev-search-vec", lambda q: ([ev("ev-search-vec"), "--db", db, "--index", index,
                                      "-k", "100"], byid[q["query_id"]])),
        ("ev-embed --role query | ev-search-vec",
         lambda q: (["sh", "-c", pipe], json.dumps(q).encode()))]
    if peers and plain:
        systems.append(("python3-faiss (read_index, search)",
                        lambda q: (["/usr/bin/python3", "-c", FAISS_PEER, plain],
                                   byid[q["query_id"]])))
    systems.append(("scripts/ev-hybrid",
                    lambda q: ([os.path.join(top, "scripts", "ev-hybrid"), "--db", db,
                                "--index", index, "--plan", plan, q["query"]], None)))
    return systems


def figures(ts):
    wall, cpu = ts
    return "p50 %.0f, p95 %.0f ms (CPU %.0f, %.0f)" % (pct(wall, 50), pct(wall, 95),
                                                        pct(cpu, 50), pct(cpu, 95))


def latency_rows(label, t, refused, targets):
    """A row for each system timed: evkit's with its peers beside them."""
    peers_of = {"ev-search-text": ("quest -m 100 -s english -o or?",
                                   "sqlite3 shell, bm25() + snippet()"),
                "ev-search-vec": ("python3-faiss (read_index, search)",)}
    peer_names = set(n for ns in peers_of.values() for n in ns)
    for name, ts in t.items():
        if name in peer_names:
            continue
        peer = []
        for pn in peers_of.get(name, ()):
            if pn in t:
                note = ", refused %d" % refused[pn] if refused[pn] else ""
                peer.append("%s: %s%s" % (pn.rstrip("?"), figures(t[pn]), note))
        tg, ok = targets.get(name, ("", None))
        if ok:
            ok = ok(pct(ts[0], 50), pct(ts[0], 95), t)
        row("%s: %s" % (label, name), figures(ts), "; ".join(peer), tg, ok)


def no_slower(a, b, t, peer="quest -m 100 -s english -o or?"):
    """Whether the wall p50 a and p95 b are no more than the peer's."""
    return peer not in t or (a <= pct(t[peer][0], 50) and b <= pct(t[peer][0], 95))


def ratio_row(label, t, a, b):
    """A row of the ratios of system a's latencies to system b's, when both
    were timed: p50 and p95, wall and CPU."""
    if a not in t or b not in t:
        return
    r = [pct(t[a][k], p) / max(pct(t[b][k], p), 1e-9) for k in (0, 1) for p in (50, 95)]
    row("%s: %s / %s" % (label, a, b.rstrip("?")), "p50 %.2f, p95 %.2f (CPU %.2f, %.2f)" % tuple(r),
        "", "", None)


def warm_cache(*paths):
    """Read each file (and each file under a folder) once, so that every
    system's latency run starts from the page cache a machine holds just
    after building them: a virtual machine's kernel may page out what it
    sees unused (DAMON's pageout), and which system finds its files on the
    disk then depends on when each was last read."""
    n = 0
    for p in paths:
        files = ([os.path.join(d, f) for d, _, fs in os.walk(p) for f in fs]
                 if os.path.isdir(p) else [p] if os.path.exists(p) else [])
        for f in files:
            with open(f, "rb") as fh:
                while True:
                    b = fh.read(1 << 22)
                    if not b:
                        break
                    n += len(b)
    say("page cache: %.0f MB read before the latency runs" % (n / 1e6))


def time_only():
    """TIME_ONLY=1: the text lane (and BEFORE's) and quest on WORK's store,
    Xapian database and queries as they are, taking turns query by query:
    queries.jsonl, long.jsonl (when there) and the one-word query "flow" 30
    times."""
    sets = [("%s queries", os.path.join(work, "queries.jsonl")),
            ("AILA's %d", os.path.join(work, "long.jsonl"))]
    warm_cache(db, db + "-wal", db + ".postings", xdb)
    for label, path in sets:
        if not os.path.exists(path):
            continue
        queries = [json.loads(line) for line in open(path)]
        say("latency: %d queries of %s, one process each" % (len(queries), path))
        t, refused = latency(text_systems(label.startswith("AILA"), False), queries)
        latency_rows(label % len(queries), t, refused, {})
        ratio_row(label % len(queries), t, "ev-search-text", "quest -m 100 -s english -o or?")
        ratio_row(label % len(queries), t, "ev-search-text", BEFORE_NAME)
        ratio_row(label % len(queries), t, BEFORE_NAME, "quest -m 100 -s english -o or?")
    flow = [{"query_id": "flow:%d" % i, "query": "flow"} for i in range(30)]
    say("latency: the one-word query \"flow\", 30 times")
    t, refused = latency(text_systems(True, False), flow)
    latency_rows("\"flow\" 30 times", t, refused, {})
    ratio_row("\"flow\"", t, "ev-search-text", "quest -m 100 -s english -o or?")
    ratio_row("\"flow\"", t, "ev-search-text", BEFORE_NAME)
    ratio_row("\"flow\"", t, BEFORE_NAME, "quest -m 100 -s english -o or?")
    con = sqlite3.connect("file:%s?mode=ro" % db, uri=True)
    nchunks = con.execute("SELECT count(*) FROM chunks").fetchone()[0]
    con.close()
    print("bench-scale (TIME_ONLY): %s, %d chunks; k=100; each query run alone by each system in"
          " turn; wall (CPU) ms; ratios of p50 and p95" % (db, nchunks))
    print_table()


def print_table():
    w = [max(len(r[i]) for r in rows + [("stage", "evkit", "peer, same run", "target", "")])
         for i in range(5)]
    for r in [("stage", "evkit", "peer, same run", "target", "")] + rows:
        print("  ".join(c.ljust(w[i]) for i, c in enumerate(r)).rstrip())


def main():
    if time_only_mode:
        return time_only()
    os.makedirs(work, exist_ok=True)
    docs, info = make_corpus()
    mb = os.path.getsize(docs) / 1e6
    qfile = os.path.join(work, "queries.jsonl")
    queries = [json.loads(line) for line in open(qfile)]
    long = [json.loads(line) for line in open(os.path.join(work, "long.jsonl"))]
    say("corpus: %.1f MB; %s" % (mb, info))
    if not (reuse and os.path.exists(db)):
        text_stages(docs, mb)
    if vectors and not (reuse and os.path.exists(index)):
        vector_stages()
    if build_only:
        print("bench-scale (BUILD_ONLY): %.1f MB of JSON Lines; corpus: %s" % (mb, info))
        print_table()
        return
    con = sqlite3.connect(db)
    ndocs_in, nchunks = con.execute(
        "SELECT (SELECT count(*) FROM documents), (SELECT count(*) FROM chunks)").fetchone()
    qv, plain = query_vectors(qfile, con) if vectors else ([], None)
    warm_cache(db, db + "-wal", db + ".postings", xdb, *[p for p in (index, plain) if vectors and p])

    say("latency: %d queries, one process each" % len(queries))
    systems = text_systems(False, full_run) + (vector_systems(qfile, qv, plain) if vectors else [])
    t, refused = latency(systems, queries)
    latency_rows("%d queries" % len(queries), t, refused, {
        "ev-search-text": ("p50 < 50, p95 < 200 ms, no slower than quest",
                           lambda a, b, t: a < 50 and b < 200 and no_slower(a, b, t)),
        "ev-search-vec": ("p50 < 20 ms", lambda a, b, t: a < 20),
        "scripts/ev-hybrid": ("p50 < 150 ms", lambda a, b, t: a < 150)})
    if long:
        say("latency: AILA's %d case descriptions, one process each" % len(long))
        t, refused = latency(text_systems(True), long)
        latency_rows("AILA's %d" % len(long), t, refused, {
            "ev-search-text": ("p50 < 300 ms", lambda a, b, t: a < 300)})

    print("bench-scale: %d documents (%.1f MB of JSON Lines), %d chunks; %d queries drawn with"
          " seed %d from %s as written, and AILA's %d apart; k=100; wall (CPU) ms"
          % (ndocs_in, mb, nchunks, len(queries), seed, ", ".join(QUERY_SETS), len(long)))
    print("corpus: " + info)
    print_table()


main()
