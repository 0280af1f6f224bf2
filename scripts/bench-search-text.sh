#!/bin/sh
# bench-search-text.sh: the text lane's speed on Cranfield's 225 queries at
# k=100, a snippet for every hit, against the same queries run raw in the
# sqlite3 shell with FTS5's snippet() (each query's words OR-ed) over the same
# store (the shell loads evkit_fts5, the store's tokeniser).  Prints the best
# of 3 runs of each and the ratio (target: at most 1.5).
# Usage: scripts/bench-search-text.sh [BIN]
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
bin=$(cd "${1:-$top/bin}" && pwd)
PATH=$bin:$PATH
tmp=$(mktemp -d "${TMPDIR:-/tmp}/evkit-bench.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
command -v sqlite3 >/dev/null || { echo "bench-search-text: no sqlite3 shell; skipped"; exit 0; }

"$top/scripts/cranfield.sh" "$tmp"
ev-ingest --db "$tmp/store.db" --quiet --size 4000 --overlap 0 "$tmp/docs.jsonl"
nq=$(wc -l <"$tmp/queries.jsonl")

# The raw queries: the words of each query, quoted, OR-ed.
/usr/bin/python3 - "$tmp/queries.jsonl" >"$tmp/raw.sql" <<'PY'
import json, re, sys
print(".output /dev/null")
for line in open(sys.argv[1]):
    words = re.findall(r"\w+", json.loads(line)["query"].lower())
    expr = " OR ".join('"%s"' % w for w in words).replace("'", "''")
    print("SELECT rowid, snippet(chunks_fts, 2, '\u00ab', '\u00bb', '\u2026', 32) FROM chunks_fts"
          " WHERE chunks_fts MATCH '%s' ORDER BY rank LIMIT 100;" % expr)
PY

now_ms() { date +%s%3N; }
best() {	# best of 3 wall times of "$@", in ms
	b=
	for _ in 1 2 3; do
		t0=$(now_ms)
		"$@" >/dev/null
		t=$(($(now_ms) - t0))
		if [ -z "$b" ] || [ "$t" -lt "$b" ]; then b=$t; fi
	done
	echo "$b"
}
ours() { ev-search-text --db "$tmp/store.db" -k 100 "$tmp/queries.jsonl"; }
# The store's FTS5 table uses evkit's tokeniser (words in every language), so
# the shell loads it to parse the MATCH expressions; the ranking is FTS5's.
raw() { sqlite3 -batch -bail -cmd ".load $bin/evkit_fts5" "$tmp/store.db" <"$tmp/raw.sql"; }
ours >/dev/null
raw >/dev/null || { echo "bench-search-text: the sqlite3 shell failed on the raw queries" >&2; exit 1; }
t_ours=$(best ours)
t_raw=$(best raw)
awk -v n="$nq" -v a="$t_ours" -v b="$t_raw" 'BEGIN {
	printf "search-text: %d queries, k=100, snippets for every hit\n", n
	printf "  ev-search-text            %7.2f ms/query (%d ms)\n", a / n, a
	printf "  sqlite3 + FTS5 snippet()  %7.2f ms/query (%d ms)\n", b / n, b
	printf "  ratio ev-search-text / sqlite3: %.2f (target <= 1.5)\n", (b > 0 ? a / b : 0)
}'
