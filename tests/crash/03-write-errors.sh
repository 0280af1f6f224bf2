# Write errors: a file-size limit (ulimit -f, SIGXFSZ ignored, so write()
# fails with EFBIG as on a full disk) and a full stdout (/dev/full).  Each
# command exits 1 with a "PROG: ..." message; the store and the index are
# left as they were (for an ingest too large for one transaction: what is
# there is whole, and a re-run completes).
. "$CRASH_LIB"
docs 2000 3 s >base.jsonl
docs 100 4 n >small.jsonl
docs 6000 5 m >large.jsonl
queries >queries.jsonl
embedded s.db base.jsonl vectors.jsonl &&
ev-embed-load --db s.db --index s.faiss <vectors.jsonl 2>>setup.err &&
ev-embed --db s.db --role query <queries.jsonl >q.jsonl 2>>setup.err ||
	{ fail "setup: $(tail -3 setup.err)"; exit 1; }
cp s.db s.faiss vectors.jsonl /dev/null . 2>/dev/null
mkdir -p orig && cp s.db s.db.postings s.faiss orig/
db_before=$(dump_hash s.db)
idx_before=$(sha256sum <s.faiss)

restore() {
	rm -f s.db-wal s.db-shm s.faiss.* s.db.postings*
	cp orig/s.db orig/s.db.postings orig/s.faiss .
}

# limited KB PROG ARGS...: run with writes limited to KB kilobytes per file
limited() {
	local kb=$1
	shift
	( trap '' XFSZ; ulimit -f "$kb"; exec "$@" )
}
# expect_runtime_error WHAT PROG: the last command's status and message
expect_runtime_error() {
	local what=$1 prog=$2 status=$3
	if [ "$status" -eq 1 ] && grep -q -E "^$prog: [^ ]" err; then
		ok "$what: exit 1 with a message ($(head -1 err | cut -c1-100))"
	else
		fail "$what: exit $status, expected 1 with '$prog: ...': $(head -2 err)"
	fi
}
unchanged() {
	local what=$1
	check "$what: integrity_check passes" integrity s.db
	check "$what: the store is unchanged (.dump)" [ "$(dump_hash s.db)" = "$db_before" ]
	check "$what: the index file is unchanged" [ "$(sha256sum <s.faiss)" = "$idx_before" ]
}

# 64 KB: room for the 100 documents' spool file (34 KB), not for their pages
limited 64 ev-ingest --db s.db --quiet small.jsonl 2>err
expect_runtime_error "ingest of 100 documents, files limited to 64 KB" ev-ingest $?
unchanged "ingest of 100 documents, files limited to 64 KB"
grep -q spool err && note "ingest of 100 documents: the limit hit the spool file, not the store"
restore

# room for the spool file and the first batches, not for all: halfway
# between the store's size before and after (learnt on a copy)
mkdir -p trial && cp orig/s.db trial/
ev-ingest --db trial/s.db --quiet large.jsonl 2>/dev/null
b=$(stat -c %s orig/s.db) a=$(stat -c %s trial/s.db) sp=$(stat -c %s large.jsonl)
kb=$(( (b + a) / 2048 ))
[ $kb -lt $((sp / 1024 + 64)) ] && kb=$((sp / 1024 + 64))
limited $kb ev-ingest --db s.db --quiet large.jsonl 2>err
expect_runtime_error "ingest of 6,000 documents, files limited to $kb KB" ev-ingest $?
grep -q spool err && note "ingest of 6,000 documents: the limit hit the spool file, not the store"
check "ingest of 6,000 documents, limited: integrity_check passes" integrity s.db
check "ingest of 6,000 documents, limited: the FTS5 index agrees" fts_integrity s.db
if [ "$(dump_hash s.db)" = "$db_before" ]; then
	ok "ingest of 6,000 documents, limited: the store is unchanged"
else
	note "ingest of 6,000 documents, limited: earlier batches stayed committed (crash-safe batching)"
fi
ev-ingest --db s.db --quiet large.jsonl 2>err
check "ingest of 6,000 documents: the re-run without a limit completes" [ $? -eq 0 ]
restore

for kb in 40 200; do
	limited $kb ev-embed-load --db s.db --index s.faiss --factory HNSW32 <vectors.jsonl 2>err
	expect_runtime_error "embed-load, files limited to $kb KB" ev-embed-load $?
	unchanged "embed-load, files limited to $kb KB"
	check "embed-load, files limited to $kb KB: no temporary index left" \
	    [ -z "$(ls s.faiss.* 2>/dev/null)" ]
	if ev-search-vec --db s.db --index s.faiss -k 5 <q.jsonl >/dev/null 2>err; then
		ok "embed-load, files limited to $kb KB: the index still answers"
	else
		fail "embed-load, files limited to $kb KB: the index does not answer: $(head -1 err)"
	fi
	restore
done

# a model of 5,000 terms does not fit in 100 KB
docs 3000 6 v 5000 >vocab.jsonl
ev-ingest --db v.db --quiet vocab.jsonl 2>>setup.err
v_before=$(dump_hash v.db)
limited 100 ev-embed --db v.db --train --dim 16 >/dev/null 2>err
expect_runtime_error "embed --train of 5,000 terms, files limited to 100 KB" ev-embed $?
check "embed --train, limited: integrity_check passes" integrity v.db
check "embed --train, limited: the store is unchanged (.dump)" [ "$(dump_hash v.db)" = "$v_before" ]

# below the size of SQLite's shared-memory file: the store cannot be opened
limited 8 ev-search-text --db s.db queries.jsonl >/dev/null 2>err
status=$?
if [ $status -eq 1 ] && grep -q -E "^ev-search-text: [^ ]" err; then
	ok "a store that cannot be opened for an I/O error: exit 1 ($(head -1 err | cut -c1-80))"
else
	fail "a store that cannot be opened for an I/O error: exit $status, expected 1: $(head -1 err)"
fi
restore

# a full standard output
printf '{"query_id":"1","query":"wing","id":"a","doc_id":"a","rank":1,"score":2,"lane":"text"}\n' >hits.jsonl
printf '{"query":"wing lift","answer":"Wings give lift.","citations":[{"id":"a","text":"wing lift"}]}\n' >answers.jsonl
printf '1 a 1\n' >qrels
full() {
	local what=$1 prog=$2
	shift 2
	"$prog" "$@" >/dev/full 2>err
	expect_runtime_error "$what > /dev/full" "$prog" $?
	if [ "$(grep -c . err)" -eq 1 ] && grep -q "No space left on device" err; then
		ok "$what > /dev/full: one message, with the OS error"
	else
		fail "$what > /dev/full: expected one message naming ENOSPC: $(head -3 err)"
	fi
}
full "ev-ingest --all" ev-ingest --db s.db --all small.jsonl
check "ev-ingest --all > /dev/full: integrity_check passes" integrity s.db
restore
full "ev-embed" ev-embed --db s.db --role query queries.jsonl
full "ev-search-text" ev-search-text --db s.db queries.jsonl
full "ev-search-vec" ev-search-vec --db s.db --index s.faiss q.jsonl
full "ev-fuse" ev-fuse hits.jsonl
full "ev-pack" ev-pack hits.jsonl
full "ev-score" ev-score answers.jsonl
full "ev-eval" ev-eval --qrels qrels hits.jsonl
