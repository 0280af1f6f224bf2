# kill -9 of ev-embed-load at several points of a rebuild, while searches
# run: the previous index still loads and answers, with the results it gave
# before (or, when the kill came after the load committed, those of the new
# index); the store passes integrity_check; no search fails meanwhile.
. "$CRASH_LIB"
# One OpenMP thread: Faiss builds an HNSW graph in an order that depends on
# its threads, so only a single-threaded build is the same from run to run
# (and the loads last long enough for the kills to land mid-way).
OMP_NUM_THREADS=1
export OMP_NUM_THREADS
N=${CRASH_VEC_DOCS:-12000}
docs "$N" 2 e >docs.jsonl
queries >queries.jsonl
embedded s.db docs.jsonl vectors.jsonl &&
ev-embed-load --db s.db --index s.faiss <vectors.jsonl 2>>setup.err &&
ev-embed --db s.db --role query <queries.jsonl >q.jsonl 2>>setup.err &&
ev-search-vec --db s.db --index s.faiss -k 10 <q.jsonl >old.hits 2>>setup.err ||
	{ fail "setup: $(tail -3 setup.err)"; exit 1; }
mkdir -p orig new
cp s.db s.faiss orig/
cp s.db s.faiss new/
t0=$(date +%s%N)
ev-embed-load --db new/s.db --index new/s.faiss --factory HNSW32 <vectors.jsonl 2>>setup.err
t1=$(date +%s%N)
# kill at fractions of how long the same load took here, however fast the
# machine: two early (mid-way), two late (around the commit)
delays=$(awk -v ns=$((t1 - t0)) 'BEGIN { s = ns / 1e9
	printf "%.3f %.3f %.3f %.3f", s * 0.2, s * 0.45, s * 0.8, s * 1.1 }')
ev-search-vec --db new/s.db --index new/s.faiss -k 10 <q.jsonl >new.hits 2>>setup.err

killed=0
for delay in $delays; do
	rm -f s.db-wal s.db-shm s.faiss.* stop search.count search-failures.log
	cp orig/s.db orig/s.faiss .
	searcher true q.jsonl ev-search-vec --db s.db --index s.faiss -k 10 &
	spid=$!
	ev-embed-load --db s.db --index s.faiss --factory HNSW32 <vectors.jsonl 2>load.err &
	kill_load_after "$delay" $! $spid
	check "kill after ${delay}s: integrity_check passes" integrity s.db
	answers_after_kill "$delay" "the load had committed; the new index answers" \
	    ev-search-vec --db s.db --index s.faiss -k 10 <q.jsonl
	left=$(ls s.faiss.* 2>/dev/null | wc -l)
	[ "$left" -gt 0 ] && note "kill after ${delay}s: $left temporary index file(s) left behind: $(ls s.faiss.*)"
	# and a load after the kill completes and cleans up
	if ev-embed-load --db s.db --index s.faiss <vectors.jsonl >/dev/null 2>reload.err; then
		ok "kill after ${delay}s: the next load completes"
	else
		fail "kill after ${delay}s: the next load fails: $(head -2 reload.err)"
	fi
done
check "at least two loads were killed halfway ($killed of 4)" [ $killed -ge 2 ]
