#!/usr/bin/python3
# bench-maxsim.py: the data and the numpy peer of scripts/bench-maxsim.sh.
#
#   bench-maxsim.py gen PAGES VECS DIM QUERIES QVECS SEED DIR
#       writes DIR/vectors.npy (PAGES*VECS rows of DIM float32, written a
#       page block at a time through a memory map: never held in memory),
#       DIR/offsets.jsonl (one {"id","offset","count"} a page) and
#       DIR/queries.jsonl (QUERIES records of QVECS "vectors").
#   bench-maxsim.py brute INDEX QUERIES K OUT
#       brute-force MaxSim in numpy over the index's own data file (mapped,
#       as evkit reads it), every page scored; writes OUT (query_id, id,
#       rank, score a line) and prints the wall and CPU seconds per query.
#   bench-maxsim.py compare RUN REFERENCE K
#       prints recall@K of RUN against REFERENCE (hit records or OUT
#       lines) and whether the two rank the same pages in the same order.
#
# Structured vectors, so that the nearest tokens mean something: 1,000
# topic directions; a page draws 8 topics and each of its vectors is one
# of them plus noise (unit length, as ColPali's are); a query draws 4
# topics of a page and its vectors are those plus more noise.
import json, sys, time
import numpy as np

def unit(x):
    return x / np.linalg.norm(x, axis=-1, keepdims=True)

def gen(pages, vecs, dim, queries, qvecs, seed, out):
    rng = np.random.default_rng(seed)
    topics = unit(rng.standard_normal((1000, dim))).astype(np.float32)
    page_topics = rng.integers(0, 1000, size=(pages, 8))
    x = np.lib.format.open_memmap(out + '/vectors.npy', mode='w+', dtype='<f4',
                                  shape=(pages * vecs, dim))
    block = max(1, 262144 // vecs)
    with open(out + '/offsets.jsonl', 'w') as f:
        for p0 in range(0, pages, block):
            p1 = min(pages, p0 + block)
            pick = np.take_along_axis(page_topics[p0:p1],
                                      rng.integers(0, 8, size=(p1 - p0, vecs)), axis=1)
            noise = rng.standard_normal((p1 - p0, vecs, dim)).astype(np.float32)
            v = topics[pick] + 0.12 * noise
            x[p0 * vecs:p1 * vecs] = unit(v).reshape(-1, dim)
            for p in range(p0, p1):
                f.write(json.dumps({'id': 'page%06d' % p, 'offset': p * vecs, 'count': vecs,
                                    'doc_id': 'doc%04d' % (p // 20), 'page': p % 20 + 1}) + '\n')
    x.flush()
    del x
    with open(out + '/queries.jsonl', 'w') as f:
        for q in range(queries):
            p = int(rng.integers(0, pages))
            ts = page_topics[p][rng.permutation(8)[:4]]
            v = topics[ts[rng.integers(0, 4, size=qvecs)]] + \
                0.2 * rng.standard_normal((qvecs, dim)).astype(np.float32)
            f.write(json.dumps({'query_id': 'q%d' % (q + 1), 'model': 'synthetic',
                                'vectors': [[round(float(a), 6) for a in r] for r in unit(v)]})
                    + '\n')

def index_records(path):
    with open(path, 'rb') as f:
        f.readline()
        h = json.loads(f.readline())
        recs = [json.loads(f.readline()) for _ in range(h['records'])]
    d = path.rsplit('/', 1)[0] + '/' + h['data'] if '/' in path else h['data']
    return h, recs, np.load(d, mmap_mode='r')

def brute(index, queries, k, out):
    h, recs, x = index_records(index)
    ids = [r['id'] for r in recs]
    off = np.array([r['offset'] for r in recs])
    cnt = np.array([r['count'] for r in recs])
    uniform = bool((cnt == cnt[0]).all()) and bool((off == np.arange(len(recs)) * cnt[0]).all())
    qs = [json.loads(l) for l in open(queries)]
    t0, c0 = time.time(), time.process_time()
    with open(out, 'w') as f:
        for q in qs:
            Q = np.asarray(q['vectors'], dtype=np.float32)
            scores = np.empty(len(recs))
            if uniform:
                n = int(cnt[0])
                step = max(1, 131072 // n)
                for r0 in range(0, len(recs), step):
                    r1 = min(len(recs), r0 + step)
                    s = np.asarray(x[r0 * n:r1 * n]) @ Q.T
                    scores[r0:r1] = s.reshape(r1 - r0, n, -1).max(axis=1).sum(axis=1)
            else:
                for r in range(len(recs)):
                    s = np.asarray(x[off[r]:off[r] + cnt[r]]) @ Q.T
                    scores[r] = s.max(axis=0).sum()
            order = sorted(range(len(recs)), key=lambda r: (-scores[r], ids[r]))[:k]
            for rank, r in enumerate(order, 1):
                f.write(json.dumps({'query_id': q['query_id'], 'id': ids[r], 'rank': rank,
                                    'score': float(scores[r])}) + '\n')
    print('%.4f %.4f' % ((time.time() - t0) / len(qs), (time.process_time() - c0) / len(qs)))

def ranking(path, k):
    out = {}
    for l in open(path):
        h = json.loads(l)
        out.setdefault(h['query_id'], []).append(h['id'])
    return {q: v[:k] for q, v in out.items()}

def compare(run, ref, k):
    a, b = ranking(run, k), ranking(ref, k)
    found = sum(len(set(a.get(q, [])) & set(v)) for q, v in b.items())
    total = sum(len(v) for v in b.values())
    same = sum(a.get(q) == v for q, v in b.items())
    print('%.4f %d %d' % (found / total if total else 0, same, len(b)))

if __name__ == '__main__':
    cmd = sys.argv[1]
    if cmd == 'gen':
        gen(*(int(a) for a in sys.argv[2:8]), sys.argv[8])
    elif cmd == 'brute':
        brute(sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5])
    elif cmd == 'compare':
        compare(sys.argv[2], sys.argv[3], int(sys.argv[4]))
