# The index file is two header lines (the magic "evkit-vindex 1" and a JSON
# object), then a plain Faiss index: Faiss itself refuses the file, and
# "tail -n +3", as ev-embed-load(1) and HACKING.md give it, is a Faiss index
# that python3-faiss reads, whose ids are the chunks' rowids in the store and
# whose search agrees with ev-search-vec (for a unit-length query: evkit
# scales vectors to unit length, so inner product is the cosine).
. "$SKIPLIB"
need_python_module faiss python3-faiss
man=$CASEDIR/../../../man/ev-embed-load.1
grep -qxF 'tail -n +3 kb.faiss >plain.faiss' "$man" && echo "the recipe is the man page's"
. "$CASEDIR/mkstore"; mkstore kb.db 6
for factory in Flat HNSW8; do
	echo "$factory:"
	ev-embed-load --db kb.db --index kb.faiss --factory $factory "$CASEDIR/vectors.jsonl" 2>/dev/null
	head -n 1 kb.faiss
	sed -n 2p kb.faiss | jq -c '{dim, count, factory, metric}'
	tail -n +3 kb.faiss >plain.faiss
	/usr/bin/python3 - <<'PY'
import sqlite3, numpy, faiss
try:
    faiss.read_index("kb.faiss")
    print("Faiss read kb.faiss as it is")
except RuntimeError as e:
    print("Faiss refuses kb.faiss:", "not recognized" in str(e))
idx = faiss.read_index("plain.faiss")
print(type(idx).__name__, "ntotal", idx.ntotal, "d", idx.d,
      "inner product", idx.metric_type == faiss.METRIC_INNER_PRODUCT)
db = sqlite3.connect("kb.db")
D, I = idx.search(numpy.array([[0.8, 0.6, 0, 0]], dtype="float32"), 3)
for d, i in zip(D[0], I[0]):
    (cid,) = db.execute("SELECT id FROM chunks WHERE rowid = ?", (int(i),)).fetchone()
    print(cid, round(float(d), 4))
PY
	echo '{"query_id":"q","vector":[0.8,0.6,0,0]}' | ev-search-vec --db kb.db --index kb.faiss -k 3 --no-snippet |
		jq -r '"\(.id) \(.score * 10000 | round / 10000)"'
done
