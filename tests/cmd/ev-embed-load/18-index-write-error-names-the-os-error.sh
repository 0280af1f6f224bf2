# Regression (finding F8): a write error on the index (files limited to
# 128 KB here, as on a full disk, while the index is about 270 KB) read as
# Faiss internals ("'ret == (size)' failed: write error in : 45106 != 1").
# It must name the OS error, exit 1, and leave the store and the index as
# they were, with no temporary file behind.
exec 2>&1
. "$CASEDIR/mkstore"; mkstore kb.db 1000
vectors() {
	awk -v seed="$1" -v n="$2" 'BEGIN { srand(seed); for (i = 0; i < n; i++) {
		printf "{\"id\":\"d%d:s1:%d\",\"model\":\"m1\",\"vector\":[", int(i / 2) + 1, i % 2
		for (j = 0; j < 64; j++) printf "%s%.4f", j ? "," : "", rand() + 0.01
		print "]}" } }'
}
vectors 7 1000 | ev-embed-load --db kb.db --index kb.faiss 2>/dev/null; echo "loaded: exit $?"
cp kb.faiss before.faiss; sqlite3 kb.db .dump > before.dump
vectors 8 1 > one.jsonl
( trap '' XFSZ; ulimit -f 128; exec ev-embed-load --db kb.db --index kb.faiss one.jsonl ) 2>&1 |
    sed -E 's/tmp\.[0-9]+/tmp.PID/'
( trap '' XFSZ; ulimit -f 128; ev-embed-load --db kb.db --index kb.faiss one.jsonl 2>/dev/null
  echo "exit $?" )
cmp kb.faiss before.faiss && echo "index unchanged"
sqlite3 kb.db .dump | cmp - before.dump && echo "store unchanged"
ls kb.faiss.* 2>/dev/null || echo "no temporary file"
