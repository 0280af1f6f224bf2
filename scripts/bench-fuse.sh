#!/bin/sh
# bench-fuse.sh: ev-fuse throughput in hit records/s over 100,000 hits of two
# lanes (1,000 queries x 50 hits x 2 lanes, synthetic), side by side with the
# same reciprocal rank fusion (k = 60) written in jq, in the same run; and
# ev-pack's rate in hits/s over ev-fuse's output.
# Usage: scripts/bench-fuse.sh BIN
set -eu
bin=$(cd "${1:?usage: bench-fuse.sh BIN}" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/bench-fuse.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
queries=1000 per=50

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

now() { date +%s.%N; }
rate() { awk -v n="$1" -v a="$2" -v b="$3" 'BEGIN { printf "%.0f", n / (b - a) }'; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", b - a }'; }

t0=$(now)
"$bin/ev-fuse" "$work/text.jsonl" "$work/vector.jsonl" >"$work/fused.jsonl"
t1=$(now)
"$bin/ev-fuse" --no-explain "$work/text.jsonl" "$work/vector.jsonl" >"$work/fused-noex.jsonl"
t2=$(now)
# The same RRF in jq: group by query, then by id, sum 1/(60+rank), best first,
# ties broken as ev-fuse breaks them (best lane rank, then id).
jq -c -s 'group_by(.query_id)[] | group_by(.id)
	| map(.[0] + {lane: "fused", score: (map(1 / (60 + .rank)) | add), best: (map(.rank) | min)})
	| sort_by(-.score, .best, .id) | to_entries[] | .value + {rank: (.key + 1)} | del(.best)' \
	"$work/text.jsonl" "$work/vector.jsonl" >"$work/jq.jsonl"
t3=$(now)
fused=$(wc -l <"$work/fused.jsonl")
"$bin/ev-pack" "$work/fused.jsonl" >"$work/packs.jsonl"
t4=$(now)

# Both give the same order (a check, not a figure).
# (jq sorts the queries by id as strings: compare each query's list in order)
a=$(jq -r '"\(.query_id) \(.id)"' "$work/fused-noex.jsonl" | sort -s -k1,1 | md5sum)
b=$(jq -r '"\(.query_id) \(.id)"' "$work/jq.jsonl" | sort -s -k1,1 | md5sum)
same=yes
[ "$a" = "$b" ] || same=NO

printf 'ev-fuse over %d hits of two lanes (%d queries), RRF k=60\n' "$hits" "$queries"
printf '  %-28s %8s s  %9s hits/s\n' "ev-fuse (with explain)" "$(secs "$t0" "$t1")" "$(rate "$hits" "$t0" "$t1")"
printf '  %-28s %8s s  %9s hits/s\n' "ev-fuse --no-explain" "$(secs "$t1" "$t2")" "$(rate "$hits" "$t1" "$t2")"
printf '  %-28s %8s s  %9s hits/s\n' "jq (the same RRF)" "$(secs "$t2" "$t3")" "$(rate "$hits" "$t2" "$t3")"
printf '  ratio jq/ev-fuse: %s x with explain, %s x without (target >= 20); same order: %s\n' \
	"$(awk -v a="$t0" -v b="$t1" -v c="$t2" -v d="$t3" 'BEGIN { printf "%.1f", (d - c) / (b - a) }')" \
	"$(awk -v b="$t1" -v c="$t2" -v d="$t3" 'BEGIN { printf "%.1f", (d - c) / (c - b) }')" "$same"
printf 'ev-pack over %d fused hits: %s s, %s hits/s, %d packs\n' "$fused" "$(secs "$t3" "$t4")" \
	"$(rate "$fused" "$t3" "$t4")" "$(wc -l <"$work/packs.jsonl")"
[ "$same" = yes ]
