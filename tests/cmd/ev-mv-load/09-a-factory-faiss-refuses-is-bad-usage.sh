# A --factory Faiss cannot make an index of (one it cannot parse, one that
# does not fit the vectors' dimension) or one with a count Faiss takes but
# crashes on (IVF0, HNSW0: a segmentation fault before) is bad usage, exit 2,
# naming the option and what to write instead; training that fails on the
# records given is a runtime failure, exit 1.  Either way the index and its
# data files are left exactly as they were, whether there was none or one.
exec 2>&1
export EV_UUID_SEED=1
. "$CASEDIR/tryload"
for f in 'Nonsense,Flat' 'IVF0,Flat' HNSW0 PQ2 'IVF100,Flat'; do tryload "$f"; done
echo "files: $(ls)"
ev-mv-load --index pages.mvi "$CASEDIR/records.jsonl"
for f in 'Nonsense,Flat' 'IVF0,Flat' HNSW0 'IVF1,PQ1x0' PQ2 'IVF100,Flat'; do tryload "$f"; done
ev-mv-load --index pages.mvi --factory HNSW8 < /dev/null; echo "exit $?"
