# Cross-check against an independent implementation of trec_eval's definitions
# (ndcg_cut, map, recall, P, recip_rank; -c: every judged query counts) in
# Python, on seeded random qrels and runs: graded relevance 0-3, repeated
# documents (chunks), ties in rank and score, interleaved queries, queries with
# no hits and hits for unjudged queries.  Graded and --binary, two cut-offs.
cat >check.py <<'PY'
import json, math, random, subprocess, sys
rnd = random.Random(20261121)
qrels, lines = {}, []
for q in range(1, 41):
    qid = "q%d" % q
    for d in rnd.sample(range(200), rnd.randint(1, 25)):
        rel = rnd.choice([0, 0, 1, 1, 2, 3])
        qrels.setdefault(qid, {})["d%d" % d] = rel
        lines.append("%s %s%s %d" % (qid, "0 " if rnd.random() < 0.3 else "", "d%d" % d, rel))
open("qrels", "w").write("\n".join(lines) + "\n")
hits = []
for q in list(range(1, 36)) + [90, 91]:
    n = rnd.randint(1, 120)
    for r in range(1, n + 1):
        rank = r if rnd.random() < 0.8 else max(1, r - 1)
        pool = list(qrels.get("q%d" % q, {})) or ["d0"]
        doc = rnd.choice(pool) if rnd.random() < 0.4 else "d%d" % rnd.randrange(200)
        hits.append({"query_id": "q%d" % q, "doc_id": doc,
                     "rank": rank, "score": round(rnd.random() * 10, 1), "lane": "fused"})
rnd.shuffle(hits)
for i, h in enumerate(hits):
    h["seq"] = i
with open("run", "w") as f:
    for h in hits:
        f.write(json.dumps({k: v for k, v in h.items() if k != "seq"}) + "\n")

def ranking(qid):
    hs = sorted((h for h in hits if h["query_id"] == qid),
                key=lambda h: (h["rank"], -h["score"], h["seq"]))
    seen, out = set(), []
    for h in hs:
        if h["doc_id"] not in seen:
            seen.add(h["doc_id"]); out.append(h["doc_id"])
    return out

def figures(qid, binary, k, rk):
    judged = qrels[qid]
    gain = lambda rel: (1 if binary else rel) if rel >= 1 else 0
    rels = sorted((gain(r) for r in judged.values() if r >= 1), reverse=True)
    ranked = ranking(qid)
    disc = lambda pos: math.log2(pos + 1)
    dcg = sum(gain(judged.get(d, 0)) / disc(p) for p, d in enumerate(ranked[:k], 1))
    idcg = sum(g / disc(p) for p, g in enumerate(rels[:k], 1))
    found, ap, rr = 0, 0.0, 0.0
    for p, d in enumerate(ranked, 1):
        if judged.get(d, 0) >= 1:
            found += 1; ap += found / p
            if found == 1: rr = 1 / p
    R = len(rels)
    return {"ndcg@%d" % k: dcg / idcg if idcg else 0, "map": ap / R if R else 0,
            "recall@%d" % rk: sum(1 for d in ranked[:rk] if judged.get(d, 0) >= 1) / R if R else 0,
            "mrr": rr, "p@%d" % k: sum(1 for d in ranked[:k] if judged.get(d, 0) >= 1) / k}

bad = 0
for binary, k, rk in ((False, 10, 100), (True, 10, 100), (False, 5, 20)):
    args = ["ev-eval", "--qrels", "qrels", "--per-query", "-k", str(k), "--cutoff", "recall=%d" % rk, "run"]
    if binary: args.append("--binary")
    out = [json.loads(l) for l in subprocess.run(args, capture_output=True, text=True, check=True).stdout.splitlines()]
    per, summary = out[:-1], out[-1]
    mean = {}
    for line in per:
        want = figures(line["query_id"], binary, k, rk)
        for m, v in want.items():
            mean[m] = mean.get(m, 0) + v / len(qrels)
            if abs(line[m] - v) > 0.00005 + 1e-12:
                bad += 1; print("differs:", line["query_id"], m, line[m], v)
    for m, v in mean.items():
        if abs(summary[m] - v) > 0.00005 + 1e-12:
            bad += 1; print("mean differs:", m, summary[m], v)
    print("binary" if binary else "graded", "k=%d recall@%d:" % (k, rk), len(per), "queries,",
          summary["queries_without_hits"], "without hits,", summary["unjudged_queries"], "unjudged,",
          "ndcg %.4f map %.4f" % (mean["ndcg@%d" % k], mean["map"]))
print("agree" if bad == 0 else "%d differences" % bad)
PY
/usr/bin/python3 check.py
