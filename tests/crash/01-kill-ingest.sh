# kill -9 of ev-ingest halfway through 60,000 documents, while searches run:
# the store passes integrity_check, what was committed is there, searches
# never fail (no "database is locked"), and re-running the same input gives
# the same store and the same search results as a clean single run.
. "$CRASH_LIB"
N=${CRASH_DOCS:-60000}
docs "$N" 1 d >docs.jsonl
queries >queries.jsonl

ev-ingest --db clean.db --quiet docs.jsonl 2>clean.err || fail "clean ingest: $(cat clean.err)"
ev-search-text --db clean.db -k 10 <queries.jsonl >clean.hits 2>>clean.err

for at in first half; do
	rm -f k.db k.db-wal k.db-shm stop search.count search-failures.log
	# searches in a loop while the ingest writes
	searcher "at_least k.db documents 1" queries.jsonl ev-search-text --db k.db -k 10 &
	spid=$!
	ev-ingest --db k.db --quiet docs.jsonl 2>ingest.err &
	pid=$!
	if [ $at = first ]; then want=1; else want=$((N / 2)); fi
	wait_for at_least k.db documents $want
	before=$(count k.db documents)
	kill -9 $pid 2>/dev/null
	wait $pid 2>/dev/null
	status=$?
	sleep 0.2
	touch stop
	wait $spid
	read -r runs bad <search.count
	if [ "$status" -ne 137 ]; then
		fail "kill at $at commit: ev-ingest was not killed halfway (exit $status, $before documents)"
		continue
	fi
	after=$(count k.db documents)
	note "killed at $at commit: $before documents seen committed before the kill, $after after it, of $N"
	check "kill at $at commit: integrity_check passes" integrity k.db
	check "kill at $at commit: the FTS5 index agrees with the chunks" fts_integrity k.db
	check "kill at $at commit: what was committed is there ($after >= $before)" [ "$after" -ge "$before" ]
	check "kill at $at commit: no committed document without its chunks" \
	    [ "$(sqlite3 k.db 'SELECT count(*) FROM documents d WHERE NOT EXISTS
		(SELECT 1 FROM chunks c WHERE c.doc_id = d.doc_id)')" = 0 ]
	check "kill at $at commit: $runs searches during the ingest, $bad failed" [ "$bad" -eq 0 -a "$runs" -gt 0 ]
	[ -s search-failures.log ] && head -3 search-failures.log
	if ev-ingest --db k.db --quiet docs.jsonl 2>rerun.err; then
		ok "kill at $at commit: re-running the same input completes"
	else
		fail "kill at $at commit: re-running the same input: $(cat rerun.err)"
	fi
	check "kill at $at commit: the re-run store holds what a clean run holds" \
	    cmp -s <(content k.db) <(content clean.db)
	ev-search-text --db k.db -k 10 <queries.jsonl >k.hits 2>>rerun.err
	check "kill at $at commit: the same search results as a clean run" cmp -s k.hits clean.hits
	cmp -s k.hits clean.hits || diff k.hits clean.hits | head -6
	check "kill at $at commit: integrity_check after the re-run" integrity k.db
done
