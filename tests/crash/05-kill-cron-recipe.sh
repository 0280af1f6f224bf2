# kill -9 at several points of the README's cron recipe (ingest; drift check
# and retraining; ev-embed --pending | ev-embed-load), then the recipe run
# again: every chunk ends with exactly one vector, of the store's current
# model, the index holds them all, and both lanes answer as after a clean
# run.  The night's documents bring new words, so the recipe retrains.
. "$CRASH_LIB"
# One thread: the SVD and Faiss then give the same bits on every run.
OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1
export OMP_NUM_THREADS OPENBLAS_NUM_THREADS
N=${CRASH_CRON_DOCS:-4000}
docs "$N" 5 a >day1.jsonl
{ cat day1.jsonl; docs "$N" 6 b 300; } >day2.jsonl
{ queries; printf '%s\n' '"t12x t40x"' '"t7x wing"'; } >queries.jsonl

# The recipe, as README.md gives it (with a small model, for time).
cat >recipe.sh <<'EOF'
set -e -o pipefail
ev-ingest --db k.db --quiet "$1"
ev-embed --db k.db --drift >/dev/null || ev-embed --db k.db --train --dim 32 >/dev/null
ev-embed --db k.db --pending | ev-embed-load --db k.db --index k.faiss
EOF
recipe() { bash recipe.sh "$@" 2>>recipe.err; }

# vectors STORE: chunks, then chunks with exactly one vector of the store's
# model made from their content, then vectors of another model or chunk
vectors() {
	sqlite3 "$1" "SELECT count(*) FROM chunks;
	    SELECT count(*) FROM chunks c JOIN vec_vectors v ON v.rowid = c.rowid
		AND v.content_hash = c.content_hash
		AND v.model = (SELECT value FROM meta WHERE key = 'embed.model');
	    SELECT count(*) FROM vec_vectors v WHERE v.model IS NOT
		(SELECT value FROM meta WHERE key = 'embed.model')
		OR NOT EXISTS (SELECT 1 FROM chunks c WHERE c.rowid = v.rowid)" | paste -sd' '
}
answers() {
	ev-search-text --db "$1" -k 10 <queries.jsonl | jq -c '[.query_id, .id, .score]' &&
	ev-embed --db "$1" <queries.jsonl | ev-search-vec --db "$1" --index "$2" -k 10 --no-snippet |
	    jq -c '[.query_id, .id, .score]'
}

# A clean first night and second night, timed stage by stage.
ms() { date +%s%N | cut -c1-13; }
mkdir clean
(cd clean && cp ../recipe.sh . && bash recipe.sh ../day1.jsonl) 2>>recipe.err ||
	{ fail "clean first night: $(tail -3 recipe.err)"; exit 1; }
cp clean/k.db day1.db
cp clean/k.faiss day1.faiss
(
	cd clean
	t0=$(ms)
	ev-ingest --db k.db --quiet ../day2.jsonl
	t1=$(ms)
	ev-embed --db k.db --drift >/dev/null || ev-embed --db k.db --train --dim 32 >/dev/null
	t2=$(ms)
	ev-embed --db k.db --pending | ev-embed-load --db k.db --index k.faiss
	t3=$(ms)
	echo "$((t1 - t0)) $((t2 - t1)) $((t3 - t2))" >../stages
) 2>>recipe.err || { fail "clean second night: $(tail -3 recipe.err)"; exit 1; }
read -r t_ingest t_train t_embed <stages
note "clean second night: ingest ${t_ingest} ms, retraining ${t_train} ms, embed and load ${t_embed} ms"
want=$(vectors clean/k.db)
answers clean/k.db clean/k.faiss >clean.answers 2>>recipe.err
check "a clean run embeds every chunk ($want)" \
	awk -v s="$want" 'BEGIN { split(s, a, " "); exit !(a[1] == 2 * '"$N"' && a[2] == a[1] && a[3] == 0) }'

# kill POINT: the second night started afresh, killed -9 at POINT, then the
# recipe run again; then the checks.
# POINTs: STAGE:WHO:SHARE -- after SHARE of STAGE's clean time (from the
# stage's start), kill WHO: "all" (the whole recipe) or one program.
stage_pattern() {
	case $1 in
	ingest) echo 'ev-ingest --db k.db' ;;
	train) echo 'ev-embed --db k.db --train' ;;
	embed) echo 'ev-embed --db k.db --pending' ;;
	esac
}
killed=0
for point in ingest:all:0.5 train:all:0.5 embed:ev-embed:0.2 embed:ev-embed:0.45 \
    embed:ev-embed-load:0.6 embed:all:0.85; do
	IFS=: read -r stage who share <<EOF
$point
EOF
	case $stage in ingest) t=$t_ingest ;; train) t=$t_train ;; embed) t=$t_embed ;; esac
	pattern=$(stage_pattern "$stage")
	# The stage may run faster than in the clean run (a machine less
	# loaded than it was then): when the recipe finished before the kill,
	# the night starts again and the kill comes after half the time, twice
	# at most.
	for attempt in 1 2 3; do
		rm -f k.db k.db-wal k.db-shm k.faiss k.faiss.* ended
		cp day1.db k.db
		cp day1.faiss k.faiss
		setsid bash -c 'bash recipe.sh day2.jsonl; s=$?; touch ended; exit $s' 2>>recipe.err &
		sid=$!
		wait_for sh -c "pgrep -s $sid -f '$pattern' >/dev/null || [ -f ended ]"
		sleep "$(awk -v t="$t" -v s="$share" -v a="$attempt" \
		    'BEGIN { printf "%.3f", t * s / 1000 / 2 ^ (a - 1) }')"
		if [ "$who" = all ]; then
			kill -9 -- -"$sid" 2>/dev/null
		else
			pkill -9 -s "$sid" -x "$who"
		fi
		wait "$sid" 2>/dev/null
		status=$?
		pkill -9 -s "$sid" 2>/dev/null	# nothing of it outlives the kill
		[ $status -ne 0 ] && break
		note "kill $point: the recipe had finished (attempt $attempt)"
	done
	if [ $status -ne 0 ]; then
		killed=$((killed + 1))
		note "kill $point: recipe exit $status; then: $(vectors k.db) (chunks, embedded, other)"
	fi
	if recipe day2.jsonl; then
		ok "kill $point: the recipe run again completes"
	else
		fail "kill $point: the recipe run again fails: $(tail -2 recipe.err)"
	fi
	check "kill $point: integrity_check passes" integrity k.db
	got=$(vectors k.db)
	check "kill $point: every chunk has one vector of the current model, none other ($got, clean $want)" \
	    [ "$got" = "$want" ]
	check "kill $point: the index file holds every chunk's vector, of that model" [ \
	    "$(sed -n 2p k.faiss | jq -r '"\(.count) \(.model)"' 2>/dev/null)" = \
	    "$(sqlite3 k.db "SELECT count(*) FROM chunks") $(sqlite3 k.db \
	    "SELECT value FROM meta WHERE key = 'embed.model'")" ]
	check "kill $point: the same model as a clean run" [ "$(sqlite3 k.db \
	    "SELECT value FROM meta WHERE key = 'embed.model'")" = "$(sqlite3 clean/k.db \
	    "SELECT value FROM meta WHERE key = 'embed.model'")" ]
	answers k.db k.faiss >k.answers 2>>recipe.err
	check "kill $point: both lanes answer as after a clean run" cmp -s k.answers clean.answers
	cmp -s k.answers clean.answers || diff k.answers clean.answers | head -4
done
check "at least four of the six kills landed before the recipe ended ($killed)" [ $killed -ge 4 ]
