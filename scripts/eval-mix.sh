#!/bin/sh
# eval-mix.sh: quality on collections that no default was chosen on (make
# eval-mix).
# Usage: scripts/eval-mix.sh [--plan PLAN.yaml] [--data DIR] [--keep DIR [--reuse]] [BIN]
#
# Every constant and rule of the defaults was chosen on the seven collections
# of make eval; a user's collection is none of them.  This makes three that
# none of them is: one collection's queries and judgements over its own
# documents and all of another's, which are distractors that change what the
# store itself measures and calibrates (chunk lengths, the vocabulary and its
# document frequencies, the embedder's directions):
#   med-cf     MED's 30 queries over MED's 1,033 and CF's 1,239 abstracts
#              (both medicine: distractors on the queries' own subjects);
#   cacm-npl   CACM's 52 over CACM's 3,204 and NPL's 11,426 (four times as
#              many short abstracts of another field, lower-cased);
#   time-med   TIME's 79 over TIME's 423 news articles and MED's 1,033.
# A distractor's id is its collection's name, '-', and its own id.  The peer
# is plain SQLite FTS5 over the same documents, measured here the way the
# seven's peers were (python3's sqlite3: title and text, the porter unicode61
# tokenizer, the query's words OR-ed, bm25(), its first 1,000 documents,
# judged by ev-eval); then scripts/eval.sh runs the default pipeline on each
# and prints its table and targets.  --keep DIR keeps the mixed collections
# in DIR/data and eval.sh's stores and runs in DIR/runs.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
prog=eval-mix.sh
collections="med cf cacm npl time"	# (the collections the mixes are made of)
. "$top/scripts/eval-common.sh"

mixes="med:cf cacm:npl time:med"
mixdata=$work/data
mkdir -p "$mixdata"
command -v jq >/dev/null || { echo "$prog: jq is needed (apt-get install jq)" >&2; exit 1; }
for m in $mixes; do
	a=${m%%:*} b=${m#*:} name=${m%%:*}-${m#*:}
	mkdir -p "$mixdata/$name"
	{ cat "$(coldir "$a")/corpus.jsonl"
	  jq -c --arg b "$b" '.id = "\($b)-\(.id)"' "$(coldir "$b")/corpus.jsonl"; } >"$mixdata/$name/corpus.jsonl"
	cp "$(coldir "$a")/queries.jsonl" "$(coldir "$a")/qrels.tsv" "$mixdata/$name/"
done

# The peer, plain FTS5, as eval.sh reads peers: "| name | plain SQLite FTS5 | nDCG@10 | MAP | R@100 |".
{
	echo "| collection | system | nDCG@10 | MAP | R@100 |"
	echo "| --- | --- | ---: | ---: | ---: |"
	for m in $mixes; do
		name=${m%%:*}-${m#*:}
		/usr/bin/python3 - "$mixdata/$name" >"$mixdata/$name/fts5.jsonl" <<'PY'
import json, re, sqlite3, sys
d = sys.argv[1]
db = sqlite3.connect(":memory:")
db.execute("CREATE VIRTUAL TABLE t USING fts5(id UNINDEXED, title, text, tokenize='porter unicode61')")
with open(d + "/corpus.jsonl") as f:
    db.executemany("INSERT INTO t VALUES (?, ?, ?)",
                   ((str(r["id"]), r.get("title") or "", r.get("text") or "") for r in map(json.loads, f)))
out = sys.stdout
with open(d + "/queries.jsonl") as f:
    for q in map(json.loads, f):
        words = re.findall(r"\w+", q["query"].lower())
        if not words:
            continue
        expr = " OR ".join('"%s"' % w for w in words)
        rows = db.execute("SELECT id, bm25(t) FROM t WHERE t MATCH ? ORDER BY bm25(t) LIMIT 1000", (expr,))
        for rank, (i, s) in enumerate(rows, 1):
            out.write(json.dumps({"query_id": q["query_id"], "id": i, "doc_id": i, "rank": rank,
                                  "score": -s}) + "\n")
PY
		ev-eval --qrels "$mixdata/$name/qrels.tsv" "$mixdata/$name/fts5.jsonl" |
			jq -r --arg n "$name" '"| \($n) | plain SQLite FTS5 | \(.["ndcg@10"]) | \(.map) | \(.["recall@100"]) |"'
	done
} >"$mixdata/README.md"

names=
for m in $mixes; do names="$names ${m%%:*}-${m#*:}"; done
"$top/scripts/eval.sh" --plan "$plan" --data "$mixdata" --keep "$work/runs" ${reuse:+--reuse} \
	--collections "${names# }" "$bin"
