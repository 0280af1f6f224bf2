# kill -9 of ev-mv-load at several points of a load into an existing
# multi-vector index, while searches run: the previous index still answers
# as before (or, when the kill came after the rename, as the new one); no
# search fails meanwhile; the next load completes and removes what the
# killed one left (its data file, its temporary index file).
. "$CRASH_LIB"
OMP_NUM_THREADS=1
export OMP_NUM_THREADS
# pages of 48 vectors of 16 dimensions, fixed seed; the second set moves them
pages() {
	awk -v n="$1" -v seed="$2" 'BEGIN { s = seed
	for (p = 0; p < n; p++) {
		line = sprintf("{\"id\":\"pg%05d\",\"model\":\"m\",\"page\":%d,\"vectors\":[", p, p % 30 + 1)
		for (j = 0; j < 48; j++) {
			line = line (j ? ",[" : "[")
			for (d = 0; d < 16; d++) {
				s = (s * 1103515245 + 12345) % 2147483648
				line = line (d ? "," : "") sprintf("%.3f", int(s / 65536) % 2001 / 1000 - 1)
			}
			line = line "]"
		}
		print line "]}"
	} }'
}
N=${CRASH_MV_PAGES:-3000}
pages "$N" 1 >old.jsonl
pages "$N" 2 >new.jsonl
pages 4 3 | sed 's/"id":"pg/"id":"q/; s/"vectors"/"query_id":"x","vectors"/' |
	jq -c '{query_id: .id, vectors: .vectors[:8]}' >q.jsonl
ev-mv-load --index s.mvi --factory IVF32,Flat old.jsonl 2>setup.err &&
ev-search-mv --index s.mvi -k 10 q.jsonl >old.hits 2>>setup.err ||
	{ fail "setup: $(tail -3 setup.err)"; exit 1; }
mkdir -p orig new
cp s.mvi s.mvi.*.npy orig/
(cd new && cp ../orig/* . && t0=$(date +%s%N) &&
	ev-mv-load --index s.mvi ../new.jsonl 2>../setup.err &&
	echo $(( $(date +%s%N) - t0 )) >../took.ns &&
	ev-search-mv --index s.mvi -k 10 ../q.jsonl >../new.hits 2>>../setup.err) ||
	{ fail "setup of the new index: $(tail -3 setup.err)"; exit 1; }
delays=$(awk -v ns="$(cat took.ns)" 'BEGIN { s = ns / 1e9
	printf "%.3f %.3f %.3f %.3f", s * 0.2, s * 0.5, s * 0.85, s * 1.1 }')

killed=0
for delay in $delays; do
	rm -f s.mvi s.mvi.* stop search.count search-failures.log
	cp orig/* .
	searcher true q.jsonl ev-search-mv --index s.mvi -k 10 &
	spid=$!
	ev-mv-load --index s.mvi new.jsonl 2>load.err &
	kill_load_after "$delay" $! $spid
	answers_after_kill "$delay" "the load had renamed its index; the new one answers" \
	    ev-search-mv --index s.mvi -k 10 q.jsonl
	if ev-mv-load --index s.mvi new.jsonl 2>reload.err &&
	    ev-search-mv --index s.mvi -k 10 q.jsonl | cmp -s - new.hits; then
		ok "kill after ${delay}s: the next load completes and answers as a clean one"
	else
		fail "kill after ${delay}s: the next load fails: $(head -2 reload.err)"
	fi
	check "kill after ${delay}s: one data file and no temporary file left" \
	    [ "$(ls s.mvi.* | wc -l)" -eq 1 ]
done
check "at least two loads were killed halfway ($killed of 4)" [ $killed -ge 2 ]
