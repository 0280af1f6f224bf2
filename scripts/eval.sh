#!/bin/sh
# eval.sh: retrieval quality on the seven test collections (make eval).
# Usage: scripts/eval.sh [--plan PLAN.yaml] [--data DIR] [--keep DIR [--reuse]]
#                        [--collections "cranfield med cacm npl time cf aila"] [BIN]
#
# For each collection of DIR (default ../shared/data beside the repository):
# makes a store exactly as a user would with the shipped defaults (ev-ingest;
# ev-embed --train; ev-embed | ev-embed-load), runs the default pipeline
# (scripts/ev-hybrid with the plan, samples/plan.yaml by default, keeping
# every stage's hits), and judges the text lane, the vector lane, the
# feedback lane when the plan runs it ("feedback") and the fused ranking with
# ev-eval (nDCG@10 as trec_eval 9.0.x, with the judgements' grades as gains:
# CF's graded 1-8, the others' 1; MAP and R@100 count any grade), and the fused
# ranking reranked by ev-rerank's built-in model ("+rerank").
# Prints one table: the peers of DIR/README.md (plain SQLite FTS5, Xapian
# BM25) beside each lane and the hybrid, then the means over the collections
# and each of the targets (met or not): the text lane at least plain FTS5
# less 1 % and at least the better peer; the hybrid at least 0.995 times its
# better lane and 1.05 times the better peer, its Recall@100 at most 0.01
# below either lane's; the mean of hybrid / FTS5 - 1 at least +12 %.
# --keep DIR keeps every store and run in DIR/COLLECTION/; with --reuse, a store already there is searched again
# as it is (when only the query side changed).  Without the data it says
# where to put it and exits 0.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
prog=eval.sh
collections="cranfield med cacm npl time cf aila"
. "$top/scripts/eval-common.sh"

# The summary figures of ev-eval's line, as "ndcg map recall".
figures() {
	sed 's/.*"ndcg@10":\([0-9.]*\).*"map":\([0-9.]*\).*"recall@100":\([0-9.]*\).*/\1 \2 \3/'
}

# Every stage's scores must fall as ranks rise (judges such as trec_eval
# order a run by score): a hit whose score is above its predecessor's within
# a query is a bug, and fails the evaluation.
check_order() {
	jq -r '[.query_id, .rank, .score] | @tsv' "$1" | awk -F'\t' -v f="$1" '
		$1 == q && ($2 < r || $3 > s + 1e-12) {
			printf "eval.sh: %s: query %s: rank %s scores %s, above rank %s (%s)\n", f, $1, $2, $3, r, s
			bad = 1; exit 1
		}
		{ q = $1; r = $2; s = $3 }
		END { exit bad }'
}

results=$work/results.tsv
: >"$results"
for c in $collections; do
	d=$(coldir "$c")
	w=$work/$c
	printf '%s: ' "$c" >&2
	start=$(date +%s)
	if [ -z "$reuse" ] || [ ! -f "$w/kb.faiss" ]; then
		rm -rf "$w"
		mkdir -p "$w"
		# The store, as a user makes it: every default.
		ev-ingest --db "$w/store.db" "$d/corpus.jsonl" >"$w/chunks.jsonl"
		ev-embed --db "$w/store.db" --train >/dev/null
		ev-embed --db "$w/store.db" <"$w/chunks.jsonl" |
			ev-embed-load --db "$w/store.db" --index "$w/kb.faiss" 2>/dev/null
	fi
	rm -rf "$w/run"
	# The default pipeline, every stage's hits kept.
	"$top/scripts/ev-hybrid" --db "$w/store.db" --index "$w/kb.faiss" --plan "$plan" \
		-f "$d/queries.jsonl" --keep "$w/run" >/dev/null
	# The built-in reranker over the hybrid, beside it (unless the plan reranks).
	ev-rerank --db "$w/store.db" "$w/run/fused.jsonl" >"$w/run/reranked.jsonl"
	for lane in text vector vector_feedback fused reranked; do
		[ -f "$w/run/$lane.jsonl" ] || continue	# a plan without the feedback lane
		check_order "$w/run/$lane.jsonl"
		printf '%s\t%s\t%s\n' "$c" "$lane" \
			"$(ev-eval --qrels "$d/qrels.tsv" "$w/run/$lane.jsonl" | figures)" >>"$results"
	done
	echo "$(($(date +%s) - start)) s" >&2
done

# The peers' figures, from the collections' README: "| c | system | n | m | r |".
peers=$work/peers.tsv
awk -F'|' 'NF >= 7 && $2 ~ /[a-z]/ && $4 ~ /[0-9]/ {
	c = $2; s = $3; gsub(/ /, "", c)
	peer = s ~ /FTS5/ ? "fts5" : s ~ /Xapian/ ? "xapian" : ""
	if (peer == "") next
	n = $4; m = $5; r = $6; gsub(/ /, "", n); gsub(/ /, "", m); gsub(/ /, "", r)
	printf "%s\t%s\t%s %s %s\n", c, peer, n, m, r
}' "$data/README.md" >"$peers"

awk -F'\t' -v cols="$collections" '
FNR == NR { peer[$1, $2] = $3; next }
{ run[$1, $2] = $3 }
function f(s, i,   a) { split(s, a, " "); return a[i] }
function pct(x, y) { return y > 0 ? sprintf("%+.1f%%", 100 * (x / y - 1)) : "n/a" }
function name(l) { return l == "fused" ? "hybrid" : l == "reranked" ? "+rerank" : l == "vector_feedback" ? "feedback" : l }
END {
	n = split(cols, c, " ")
	printf "%-10s %-8s %9s %9s %9s\n", "collection", "run", "nDCG@10", "MAP", "R@100"
	for (i = 1; i <= n; i++) {
		split("fts5 xapian", ps, " ")
		for (j = 1; j <= 2; j++) if ((c[i], ps[j]) in peer)
			printf "%-10s %-8s %9s %9s %9s\n", c[i], ps[j], f(peer[c[i], ps[j]], 1), f(peer[c[i], ps[j]], 2), f(peer[c[i], ps[j]], 3)
		split("text vector vector_feedback fused reranked", ls, " ")
		for (j = 1; j <= 5; j++) if ((c[i], ls[j]) in run)
			printf "%-10s %-8s %9s %9s %9s\n", c[i], name(ls[j]), f(run[c[i], ls[j]], 1), f(run[c[i], ls[j]], 2), f(run[c[i], ls[j]], 3)
	}
	split("fts5 xapian text vector vector_feedback fused reranked", all, " ")
	for (j = 1; j <= 7; j++) {
		s1 = s2 = s3 = 0; k = 0
		for (i = 1; i <= n; i++) {
			v = (all[j] == "fts5" || all[j] == "xapian") ? peer[c[i], all[j]] : run[c[i], all[j]]
			if (v == "") continue
			s1 += f(v, 1); s2 += f(v, 2); s3 += f(v, 3); k++
		}
		mean[all[j]] = k ? s1 / k : 0
		if (k) printf "%-10s %-8s %9.4f %9.4f %9.4f\n", "mean", name(all[j]), s1 / k, s2 / k, s3 / k
	}
	print ""
	print "targets (nDCG@10 unless said):"
	for (i = 1; i <= n; i++) {
		bp = f(peer[c[i], "fts5"], 1); xp = f(peer[c[i], "xapian"], 1); best = bp > xp ? bp : xp
		t = f(run[c[i], "text"], 1); v = f(run[c[i], "vector"], 1); h = f(run[c[i], "fused"], 1)
		bl = t > v ? t : v
		printf "  %-10s text %.4f vs plain FTS5 %.4f less 1%%: %s; vs better peer %.4f: %s\n", c[i], t, bp, (t >= 0.99 * bp ? "met" : "NOT met"), best, (t >= best ? "met" : "NOT met")
		printf "  %-10s hybrid %.4f vs 0.995 x its better lane %.4f: %s; vs better peer: %s (target +5%%): %s\n", c[i], h, bl, (h >= 0.995 * bl ? "met" : "NOT met"), pct(h, best), (h >= 1.05 * best ? "met" : "NOT met")
		hr = f(run[c[i], "fused"], 3); tr = f(run[c[i], "text"], 3); vr = f(run[c[i], "vector"], 3)
		printf "  %-10s hybrid R@100 %.4f vs text %.4f, vector %.4f, less 0.01: %s\n", c[i], hr, tr, vr, (hr >= tr - 0.01 && hr >= vr - 0.01) ? "met" : "NOT met"
		rr = f(run[c[i], "reranked"], 1)
		printf "  %-10s reranked %.4f vs hybrid %.4f: %s\n", c[i], rr, h, (rr >= h ? "not lower" : "LOWER")
	}
	# the mean of the per-collection gains, not the gain of the means
	g = 0
	for (i = 1; i <= n; i++) g += f(run[c[i], "fused"], 1) / f(peer[c[i], "fts5"], 1) - 1
	printf "  mean       of hybrid / plain FTS5 - 1: %+.1f%% (target +12%%): %s\n", 100 * g / n, (g / n >= 0.12 ? "met" : "NOT met")
}' "$peers" "$results"
