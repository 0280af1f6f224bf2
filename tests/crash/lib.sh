# lib.sh: helpers of the crash tests (sourced).  $1 of the test is BIN.
set -u
BIN=$1
PATH=$BIN:$PATH
export LC_ALL=C
# searches before and after a crash are compared byte for byte: the lanes'
# stamp of when they retrieved each hit (retrieved_at) is pinned
export EV_FIXED_TIME=2026-11-29T02:10:33.123Z

ok() { echo "ok $*"; }
fail() { echo "FAIL $*"; }
note() { echo "note $*"; }
# check WHAT COMMAND...: ok when the command succeeds
check() {
	local what=$1
	shift
	if "$@"; then ok "$what"; else fail "$what"; fi
}

# docs N SEED TAG: N deterministic documents as JSON Lines
# docs N SEED TAG [VOCAB]: ... with VOCAB distinct synthetic words
docs() { awk -v n="$1" -v seed="$2" -v tag="$3" -v vocab="${4:-0}" -f "$CRASH_DIR/gen.awk"; }

integrity() { [ "$(sqlite3 "$1" 'PRAGMA integrity_check' 2>&1)" = ok ]; }
fts_integrity() {
	sqlite3 -cmd ".load $BIN/evkit_fts5" "$1" \
	    "INSERT INTO chunks_fts(chunks_fts) VALUES('integrity-check')" 2>/dev/null
}
# count DB TABLE: its rows, -1 when it cannot be read.  The sqlite3 shell
# would create a missing DB (and a command starting at that moment would
# find an empty file): look only at a DB that exists.
count() {
	[ -f "$1" ] || { echo -1; return; }
	sqlite3 "$1" "SELECT count(*) FROM $2" 2>/dev/null || echo -1
}
# at_least DB TABLE N: whether the table has N rows or more
at_least() { [ "$(count "$1" "$2")" -ge "$3" ]; }
# the content of a store that matters, comparable across runs
content() {
	sqlite3 "$1" "SELECT doc_id, content_hash FROM documents ORDER BY doc_id;
		SELECT id, content_hash, text FROM chunks ORDER BY id;"
}
dump_hash() { sqlite3 "$1" .dump | sha256sum | cut -c1-16; }

# the queries every search test asks
queries() {
	printf '%s\n' '"wing lift"' '"shock wave boundary layer"' '"supersonic flutter of panels"' \
	    '"heat transfer laminar"' '"reynolds number separation"' '"hypersonic blunt cone"'
}

# wait_for CMD... : poll (every 20 ms, at most 2 min) until CMD succeeds
wait_for() {
	local i=0
	until "$@"; do
		i=$((i + 1))
		[ $i -gt 6000 ] && return 1
		sleep 0.02
	done
}

# embedded DB INPUT VECTORS: ingest INPUT into DB, train the built-in model
# (16 dimensions) and write the vectors of INPUT's chunks to VECTORS; the
# messages go to setup.err (started afresh).  Fails as the first step that fails.
embedded() {
	ev-ingest --db "$1" --quiet "$2" 2>setup.err &&
	ev-embed --db "$1" --train --dim 16 >/dev/null 2>>setup.err &&
	ev-ingest --db "$1" --all "$2" 2>>setup.err | ev-embed --db "$1" >"$3" 2>>setup.err
}

# kill_load_after DELAY PID SEARCHER: SIGKILL the load PID (a child of this
# shell) DELAY seconds in, then stop the searcher (child SEARCHER, see
# searcher()) and read its counts into runs and bad.  status is the load's
# exit status; killed counts the loads killed before they finished.
kill_load_after() {
	sleep "$1"
	kill -9 "$2" 2>/dev/null
	wait "$2"
	status=$?
	touch stop
	wait "$3"
	read -r runs bad <search.count
	if [ $status -ne 137 ]; then
		note "kill after ${1}s: the load had finished (exit $status)"
	else
		killed=$((killed + 1))
	fi
}

# answers_after_kill DELAY LOADED SEARCH...: after a load killed DELAY
# seconds in, SEARCH (its input redirected by the caller) answers as before
# the load (old.hits), or as after it (new.hits: LOADED says so) when the
# load had got that far; and none of the $runs searches made during the
# load ($bad of them failed) failed.
answers_after_kill() {
	local delay=$1 loaded=$2
	shift 2
	if "$@" >after.hits 2>after.err; then
		if cmp -s after.hits old.hits; then
			ok "kill after ${delay}s: the previous index answers as before"
		elif cmp -s after.hits new.hits; then
			ok "kill after ${delay}s: $loaded"
		else
			fail "kill after ${delay}s: the index answers, but neither as before nor as after the load"
		fi
	else
		fail "kill after ${delay}s: $1 fails: $(head -2 after.err)"
	fi
	check "kill after ${delay}s: $runs searches during the load, $bad failed" [ "$bad" -eq 0 -a "$runs" -gt 0 ]
	[ ! -s search-failures.log ] || head -3 search-failures.log
}

# searcher READY INPUT SEARCH...: until a file "stop" appears, every 10 ms,
# run SEARCH with INPUT as its standard input whenever the command READY
# (eval'd; "true" for always) succeeds.  A run that fails or says "locked"
# is bad, its message kept in search-failures.log; at the end "RUNS BAD"
# goes to search.count.
searcher() {
	local ready=$1 input=$2 runs=0 bad=0
	shift 2
	while [ ! -f stop ]; do
		if eval "$ready"; then
			if ! "$@" <"$input" >/dev/null 2>search.err || grep -q -i locked search.err; then
				bad=$((bad + 1))
				cat search.err >>search-failures.log
			fi
			runs=$((runs + 1))
		fi
		sleep 0.01
	done
	echo "$runs $bad" >search.count
}
