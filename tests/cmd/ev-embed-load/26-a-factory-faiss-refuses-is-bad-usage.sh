# A --factory Faiss cannot make an index of (one it cannot parse, one that
# does not fit the vectors' dimension) or one with a count Faiss takes but
# crashes on (IVF0, HNSW0: a segmentation fault before) is bad usage, exit 2,
# naming the option and what to write instead; training that fails on the
# vectors given is a runtime failure, exit 1.  Either way the store and the
# index are left exactly as they were: a new store too (the load used to
# leave its table of vectors behind), and one that holds an index.
exec 2>&1
. "$CASEDIR/mkstore"; mkstore kb.db 6
. "$CASEDIR/tryload"
for f in 'Nonsense,Flat' 'IVF0,Flat' HNSW0 PQ3 'IVF100,Flat'; do tryload "$f"; done
[ -e kb.faiss ] || echo "no index written"
ev-embed-load --db kb.db --index kb.faiss "$CASEDIR/vectors.jsonl"
for f in 'Nonsense,Flat' 'IVF0,Flat' HNSW0 'IVF1,PQ1x0' PQ3 'IVF100,Flat'; do tryload "$f"; done
ev-embed-load --db kb.db --index kb.faiss --factory HNSW8 < /dev/null; echo "exit $?"
