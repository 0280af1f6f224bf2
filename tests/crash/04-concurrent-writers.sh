# Writers at the same time (as cron jobs overlap): two ingests of different
# documents into one store, and an ingest beside an ev-embed-load, while
# searches run.  Each waits for the other (busy timeout): all exit 0, no
# "database is locked", and the store ends up with both inputs.
. "$CRASH_LIB"
docs 8000 7 a >a.jsonl
docs 8000 8 b >b.jsonl
docs 4000 9 c >c.jsonl
queries >queries.jsonl
embedded s.db c.jsonl c.vec ||
	{ fail "setup: $(tail -3 setup.err)"; exit 1; }

ev-ingest --db s.db --quiet a.jsonl 2>a.err & pa=$!
ev-ingest --db s.db --quiet b.jsonl 2>b.err & pb=$!
ev-embed-load --db s.db --index s.faiss <c.vec 2>c.err & pc=$!
runs=0 bad=0
while kill -0 $pa 2>/dev/null || kill -0 $pb 2>/dev/null || kill -0 $pc 2>/dev/null; do
	if ! ev-search-text --db s.db -k 10 <queries.jsonl >/dev/null 2>search.err ||
	    grep -q -i locked search.err; then
		bad=$((bad + 1))
		cat search.err
	fi
	runs=$((runs + 1))
done
wait $pa; sa=$?
wait $pb; sb=$?
wait $pc; sc=$?
check "two ingests at once: the first exits 0 ($(head -1 a.err))" [ $sa -eq 0 ]
check "two ingests at once: the second exits 0 ($(head -1 b.err))" [ $sb -eq 0 ]
check "an ev-embed-load beside them exits 0 ($(head -1 c.err | cut -c1-60))" [ $sc -eq 0 ]
check "no writer saw 'database is locked'" sh -c '! grep -q -i locked a.err b.err c.err'
check "the store holds both inputs (20000 documents)" [ "$(count s.db documents)" -eq 20000 ]
check "integrity_check passes" integrity s.db
check "the FTS5 index agrees with the chunks" fts_integrity s.db
check "$runs searches meanwhile, $bad failed" [ $bad -eq 0 -a $runs -gt 0 ]
