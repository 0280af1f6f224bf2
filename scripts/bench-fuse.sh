#!/bin/sh
# bench-fuse.sh: ev-fuse throughput in hit records/s over 100,000 hits of two
# lanes (1,000 queries x 50 hits x 2 lanes, synthetic), side by side with the
# same reciprocal rank fusion (k = 60) written in jq, in the same run; and
# ev-pack's rate in hits/s over ev-fuse's output.
#
# Each side is run RUNS times (default 3) and its best run counts, for the
# wall-clock time and for the CPU time (user + system) alike: on a shared
# machine the best run is the one least disturbed.  The ratios jq/ev-fuse are
# given for both (target: at least 20, with and without explain).  ev-pack
# is run once.
# Usage: scripts/bench-fuse.sh BIN
set -eu
bin=$(cd "${1:?usage: bench-fuse.sh BIN}" && pwd)
runs=${RUNS:-3}
work=$(mktemp -d "${TMPDIR:-/tmp}/bench-fuse.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
queries=1000 per=50
export LC_ALL=C

# Two lanes over the same 200 documents per query, overlapping by about half.
gen() {
	awk -v lane="$1" -v q="$queries" -v n="$per" -v seed="$2" 'BEGIN {
		srand(seed)
		for (i = 1; i <= q; i++)
			for (r = 1; r <= n; r++) {
				d = int(rand() * 100) + (lane == "text" ? 0 : 50) + i * 7
				printf "{\"query_id\":\"q%d\",\"query\":\"query number %d\",\"id\":\"d%d:0:%d\",\"doc_id\":\"d%d\",\"rank\":%d,\"score\":%.6f,\"lane\":\"%s\",\"title\":\"Document %d\",\"source_uri\":\"corpus/d%d\",\"snippet\":\"a snippet of the chunk that matched the query in lane %s\"}\n", i, i, d, r, d, r, (n - r + 1) / n * (lane == "text" ? 20 : 1), lane, d, d, lane
			}
	}' | awk -F'"id":"' '{ split($2, a, "\""); k = substr($0, 1, 20) a[1]; if (!(k in seen)) { seen[k] = 1; print } }'
}
gen text 1 >"$work/text.jsonl"
gen vector 2 >"$work/vector.jsonl"
hits=$(cat "$work/text.jsonl" "$work/vector.jsonl" | wc -l)

# The same RRF in jq: group by query, then by id, sum 1/(60+rank), best first,
# ties broken as ev-fuse breaks them (best lane rank, then id).
cat >"$work/rrf.jq" <<'EOF'
group_by(.query_id)[] | group_by(.id)
| map(.[0] + {lane: "fused", score: (map(1 / (60 + .rank)) | add), best: (map(.rank) | min)})
| sort_by(-.score, .best, .id) | to_entries[] | .value + {rank: (.key + 1)} | del(.best)
EOF

# measure NAME RUNS OUT CMD...: run CMD (stdout to OUT) RUNS times; the best
# wall-clock and the best CPU (user + system) seconds of the runs go into
# $work/NAME (scripts/bench-time.py).
measure() {
	name=$1 n=$2 out=$3
	shift 3
	/usr/bin/python3 "$(dirname "$0")/bench-time.py" "$n" "$out" "$@" >"$work/$name" || exit 1
}

measure ex "$runs" "$work/fused.jsonl" "$bin/ev-fuse" "$work/text.jsonl" "$work/vector.jsonl"
measure noex "$runs" "$work/fused-noex.jsonl" "$bin/ev-fuse" --no-explain "$work/text.jsonl" "$work/vector.jsonl"
measure jq "$runs" "$work/jq.jsonl" jq -c -s -f "$work/rrf.jq" "$work/text.jsonl" "$work/vector.jsonl"
fused=$(wc -l <"$work/fused.jsonl")
measure pack 1 "$work/packs.jsonl" "$bin/ev-pack" "$work/fused.jsonl"

# Both give the same order (a check, not a figure).
# (jq sorts the queries by id as strings: compare each query's list in order)
a=$(jq -r '"\(.query_id) \(.id)"' "$work/fused-noex.jsonl" | sort -s -k1,1 | md5sum)
b=$(jq -r '"\(.query_id) \(.id)"' "$work/jq.jsonl" | sort -s -k1,1 | md5sum)
same=yes
[ "$a" = "$b" ] || same=NO

read -r exw exc <"$work/ex"
read -r nxw nxc <"$work/noex"
read -r jqw jqc <"$work/jq"
read -r pkw pkc <"$work/pack"
line() {	# NAME WALL CPU
	awk -v name="$1" -v w="$2" -v c="$3" -v n="$hits" 'BEGIN {
		printf "  %-24s %7.3f s wall %7.3f s cpu  %9.0f hits/s (wall)\n", name, w, c, n / (w > 0 ? w : 0.001) }'
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.1f", a / b; else printf "inf" }'; }

printf 'ev-fuse over %d hits of two lanes (%d queries), RRF k=60; best of %d runs each\n' \
	"$hits" "$queries" "$runs"
line "ev-fuse (with explain)" "$exw" "$exc"
line "ev-fuse --no-explain" "$nxw" "$nxc"
line "jq (the same RRF)" "$jqw" "$jqc"
printf '  ratio jq/ev-fuse, with explain: %s x wall, %s x cpu  (target >= 20)\n' "$(ratio "$jqw" "$exw")" "$(ratio "$jqc" "$exc")"
printf '  ratio jq/ev-fuse, --no-explain: %s x wall, %s x cpu  (target >= 20); same order: %s\n' \
	"$(ratio "$jqw" "$nxw")" "$(ratio "$jqc" "$nxc")" "$same"
printf 'ev-pack over %d fused hits (one run): %.3f s wall, %.3f s cpu, %s hits/s, %d packs\n' "$fused" "$pkw" "$pkc" \
	"$(awk -v n="$fused" -v w="$pkw" 'BEGIN { printf "%.0f", n / (w > 0 ? w : 0.001) }')" \
	"$(wc -l <"$work/packs.jsonl")"
[ "$same" = yes ]
