#!/bin/sh
# bench-scale.sh [BIN]: evkit at scale on one machine (make bench-scale).
#
# Times every stage of the pipeline as a user would run it, on DOCS
# documents generated deterministically (default 1,000,000) or on a JSON
# Lines corpus of your own (CORPUS=FILE), and prints a table of figures, each
# with its target and the peers of the same run: the corpus loaded raw into
# an FTS5 table by Python's sqlite3 and indexed by python3-xapian (English
# stemmer, positions, title and text: its time and size on disk beside the
# store and its postings file); the same queries in the sqlite3 shell (FTS5
# bm25() ORDER BY ... LIMIT 100 with snippet()) and in Xapian's quest
# (`quest -d DB -m 100 -s english -o or 'QUERY'`); python3-faiss searching
# the same index.
#
# The generated text: real sentences, re-mixed.  Sentences are taken, in
# this order, from four test collections in ../shared/data (when present;
# said when not), the project's samples/, and the plain-text and gzipped
# files of /usr/share/doc; each document is a run of sentences drawn by a
# fixed-seed generator (300 to 2,000 bytes, about 1.16 KB on average), its
# title the first words of another.  The same sources give the same corpus;
# the sentence pool's SHA-256 is printed so that two runs can be compared
# (a CORPUS file's own SHA-256 is printed).
#
# Queries: QUERIES (default 300) drawn with SEED from the query sets of six
# test collections in ../shared/data as written (Cranfield, MED, CACM, NPL,
# TIME, CF; topped up with sentences of the pool when they are absent), and
# all of AILA's 50 case descriptions (198 to 1,023 words), timed apart for
# the text lane and quest alone.
#
# Stages: ingest, which makes the postings file at its end (one
# `ev-ingest --db kb.db --quiet docs.jsonl`, as a user runs it), against
# the peers' loading; re-ingest of the unchanged corpus; ev-embed
# --train; ev-embed --pending (every chunk); ev-embed-load (the default
# factory for the size); recall@10 of ev-search-vec against exact search;
# then each query run alone, one process per query as a user runs it, for
# the text lane (its defaults; without feedback and proximity; exhaustive),
# quest, the sqlite3 shell, the vector lane alone and after ev-embed --role
# query, python3-faiss and the whole scripts/ev-hybrid; the systems take
# turns query by query.  Each latency is given as p50 and p95 of the wall
# time and, in brackets, of the CPU time (user + system, the process and its
# children): on a shared machine the wall time says as much about the other
# work as about the system timed.  A query quest refuses (its parser reads
# AND, OR and NOT in capitals as operators) is counted and said.
#
# Variables: DOCS (documents generated), CORPUS (a JSON Lines file of
# documents instead), QUERIES, SEED (the generator's and the draw's,
# default 1), WORK=DIR (work in DIR and keep it: a second run reuses its
# corpus and, with REUSE=1, its store, index and Xapian database, to time
# the queries again), NICE (default 10: the machine is shared), PEERS=0
# (leave the peers out), VECTORS=0 (the text lane alone: no training,
# embedding, index or hybrid), FULL=0 (leave the text lane --exhaustive and
# the sqlite3 shell out of the latency run: seconds a query at 1 M), XAPIAN=0
# (leave Xapian out: its indexing, half an hour at 1 M, and quest),
# BUILD_ONLY=1 (time the stages that build, the ingest and its peers and the
# vector stages, and stop before the latency runs), TIME_ONLY=1 with WORK=DIR (time the text
# lane and quest alone on DIR's kb.db, xapian.db, queries.jsonl and
# long.jsonl as they are, and the one-word query "flow" 30 times: nothing
# is built or written), BEFORE=BINDIR (another evkit's ev-search-text timed
# beside this one's, in the same turns, and the ratios of the two printed).
# Each figure is also printed on standard error as soon as it is measured.
# At 1 M documents the run takes more than two hours on two cores (Xapian's
# indexing half an hour more) and needs about 30 GB of disk at its peak (the
# store, the vectors' JSON Lines: 17 GB at 768 dimensions, the peers' indexes).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
bin=$(cd "${1:-$top/bin}" && pwd)
DOCS=${DOCS:-1000000}
QUERIES=${QUERIES:-300}
CORPUS=${CORPUS:-}
SEED=${SEED:-1}
NICE=${NICE:-10}
PEERS=${PEERS:-1}
REUSE=${REUSE:-0}
VECTORS=${VECTORS:-1}
py=/usr/bin/python3
for c in "$bin/ev-ingest" "$bin/ev-search-text" "$bin/ev-embed" "$bin/ev-embed-load" \
    "$bin/ev-search-vec"; do
	[ -x "$c" ] || { echo "bench-scale: $c: missing; run make all first" >&2; exit 1; }
done
if [ -n "$CORPUS" ]; then
	[ -r "$CORPUS" ] || { echo "bench-scale: $CORPUS: cannot read it (CORPUS=FILE: JSON Lines documents)" >&2; exit 2; }
	CORPUS=$(cd "$(dirname "$CORPUS")" && pwd)/$(basename "$CORPUS")
fi
if [ -n "${WORK:-}" ]; then
	mkdir -p "$WORK"
	work=$(cd "$WORK" && pwd)
else
	work=$(mktemp -d "${TMPDIR:-/tmp}/evkit-bench-scale.XXXXXX")
	trap 'rm -rf "$work"' EXIT INT TERM
fi
export EV_BIN="$bin"
nice -n "$NICE" $py "$top/scripts/bench-scale.py" "$top" "$bin" "$work" "$DOCS" "$QUERIES" \
    "$SEED" "$PEERS" "$REUSE" "$VECTORS" "$CORPUS"
