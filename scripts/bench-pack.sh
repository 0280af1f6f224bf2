#!/bin/sh
# bench-pack.sh: ev-pack's rate in hits/s on RRF-fused hits of both lanes at
# k=1000, against `jq -c .` (parse and re-emit every record) over the same
# input, in the same run.
#
# The input is real pipeline output: a synthetic corpus (DOCS documents of 60
# to 120 words drawn from a Zipf-like vocabulary, one in twenty a copy of the
# one before, written by this script) is
# ingested, embedded and indexed; QUERIES queries of two or three common words
# run through both lanes at k=1000 and ev-fuse (RRF), which gives about
# 1,000-1,400 candidates a query of about 1.5 KB each.  ev-pack keeps 10 of
# them a query (-k 10), with near-duplicate suppression on (the default) and
# off (--no-dedupe).  Each side is run RUNS times (default 3); the best wall
# and CPU times count.  Target: ev-pack at least as fast as jq -c . with
# de-duplication on.
# Usage: scripts/bench-pack.sh BIN
set -eu
bin=$(cd "${1:?usage: bench-pack.sh BIN}" && pwd)
dir=$(cd "$(dirname "$0")" && pwd)
runs=${RUNS:-3} docs=${DOCS:-6000} queries=${QUERIES:-60}
work=$(mktemp -d "${TMPDIR:-/tmp}/bench-pack.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
export LC_ALL=C

# The corpus: word i of a 4,000-word vocabulary is drawn with weight 1/i.
awk -v n="$docs" 'BEGIN {
	srand(7)
	split("ka lo mi ne pu ra si to vu ze ba de fi go hu", syl, " ")
	for (i = 1; i <= 4000; i++) {
		w = ""; x = i
		do { w = w syl[x % 15 + 1]; x = int(x / 15) } while (x > 0)
		word[i] = w (i % 3 == 0 ? "n" : "")
		tot += 1 / i; cum[i] = tot
	}
	for (d = 1; d <= n; d++) {
		len = 60 + int(rand() * 60); t = ""
		for (j = 0; j < len; j++) {
			r = rand() * tot; lo = 1; hi = 4000
			while (lo < hi) { m = int((lo + hi) / 2); if (cum[m] < r) lo = m + 1; else hi = m }
			t = t (j ? " " : "") word[lo]
		}
		if (d % 20 == 0)	# one in twenty is a copy of the one before
			t = prev
		prev = t
		printf "{\"id\":\"doc-%05d\",\"title\":\"Document %d of the synthetic corpus\",\"source_uri\":\"file:///corpus/doc-%05d.txt\",\"text\":\"%s.\"}\n", d, d, d, t
	}
	for (q = 1; q <= '"$queries"'; q++) {
		a = 2 + int(rand() * 30); b = 2 + int(rand() * 30); c = 2 + int(rand() * 60)
		printf "\"%s %s%s\"\n", word[a], word[b], (q % 2 ? " " word[c] : "") > "/dev/stderr"
	}
}' >"$work/docs.jsonl" 2>"$work/q.jsonl"
"$bin/ev-ingest" --db "$work/db" --quiet "$work/docs.jsonl"
"$bin/ev-embed" --db "$work/db" --train --dim 64 >/dev/null
"$bin/ev-ingest" --db "$work/db" --all "$work/docs.jsonl" | "$bin/ev-embed" --db "$work/db" |
	"$bin/ev-embed-load" --db "$work/db" --index "$work/idx" 2>/dev/null
"$bin/ev-search-text" --db "$work/db" -k 1000 "$work/q.jsonl" >"$work/text.jsonl"
"$bin/ev-embed" --db "$work/db" --role query "$work/q.jsonl" 2>/dev/null |
	"$bin/ev-search-vec" --db "$work/db" --index "$work/idx" -k 1000 >"$work/vector.jsonl"
"$bin/ev-fuse" --method rrf "$work/text.jsonl" "$work/vector.jsonl" >"$work/fused.jsonl"
# (KEEP=FILE keeps the fused hits, to measure again without rebuilding)
[ -z "${KEEP:-}" ] || cp "$work/fused.jsonl" "$KEEP"
hits=$(wc -l <"$work/fused.jsonl")
bytes=$(wc -c <"$work/fused.jsonl")

t="$dir/bench-time.py"
/usr/bin/python3 "$t" "$runs" "$work/jq.out" jq -c . "$work/fused.jsonl" >"$work/jq"
/usr/bin/python3 "$t" "$runs" "$work/pack.out" "$bin/ev-pack" -k 10 "$work/fused.jsonl" >"$work/pack"
/usr/bin/python3 "$t" "$runs" "$work/nodedupe.out" "$bin/ev-pack" -k 10 --no-dedupe \
	"$work/fused.jsonl" >"$work/nodedupe"
packs=$(wc -l <"$work/pack.out")
[ "$packs" -eq "$queries" ] || { echo "bench-pack.sh: $packs packs for $queries queries" >&2; exit 1; }

read -r jqw jqc <"$work/jq"
read -r pkw pkc <"$work/pack"
read -r ndw ndc <"$work/nodedupe"
line() {	# NAME WALL CPU
	awk -v name="$1" -v w="$2" -v c="$3" -v n="$hits" 'BEGIN {
		printf "  %-28s %7.3f s wall %7.3f s cpu  %9.0f hits/s (wall) %9.0f hits/s (cpu)\n",
		    name, w, c, n / (w > 0 ? w : 0.001), n / (c > 0 ? c : 0.001) }'
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.1f", a / b; else printf "inf" }'; }
printf 'ev-pack -k 10 over %d RRF-fused hits of two lanes at k=1000 (%d queries, %.0f hits and %.2f KB a query); best of %d runs\n' \
	"$hits" "$queries" "$(awk -v h="$hits" -v q="$queries" 'BEGIN { print h / q }')" \
	"$(awk -v b="$bytes" -v h="$hits" 'BEGIN { print b / h / 1024 }')" "$runs"
line "ev-pack (de-duplication on)" "$pkw" "$pkc"
line "ev-pack --no-dedupe" "$ndw" "$ndc"
line "jq -c ." "$jqw" "$jqc"
printf '  speed of ev-pack over jq -c . (de-duplication on): %s x wall, %s x cpu  (target >= 1)\n' \
	"$(ratio "$jqw" "$pkw")" "$(ratio "$jqc" "$pkc")"
awk -v a="$jqc" -v b="$pkc" 'BEGIN { exit !(b <= a) }'
