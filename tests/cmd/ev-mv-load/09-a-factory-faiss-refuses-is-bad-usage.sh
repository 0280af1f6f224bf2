# A --factory Faiss cannot make an index of (one it cannot parse, one that
# does not fit the vectors' dimension) or one with a count Faiss takes but
# crashes on (IVF0, HNSW0: a segmentation fault before) is bad usage, exit 2,
# naming the option and what to write instead; training that fails on the
# records given is a runtime failure, exit 1.  Either way the index and its
# data files are left exactly as they were, whether there was none or one.
exec 2>&1
export EV_UUID_SEED=1
state() { echo "$(ls pages.mvi* 2>/dev/null | tr '\n' ' ')$(cat pages.mvi* 2>/dev/null | cksum)"; }
try() {
	before=$(state)
	ev-mv-load --index pages.mvi --factory "$1" "$CASEDIR/records.jsonl"
	echo "exit $?"
	[ "$(state)" = "$before" ] && echo "index unchanged"
}
for f in 'Nonsense,Flat' 'IVF0,Flat' HNSW0 PQ2 'IVF100,Flat'; do try "$f"; done
echo "files: $(ls)"
ev-mv-load --index pages.mvi "$CASEDIR/records.jsonl"
for f in 'Nonsense,Flat' 'IVF0,Flat' HNSW0 'IVF1,PQ1x0' PQ2 'IVF100,Flat'; do try "$f"; done
ev-mv-load --index pages.mvi --factory HNSW8 < /dev/null; echo "exit $?"
