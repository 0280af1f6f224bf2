#!/bin/sh
# bench-scale.sh [BIN]: evkit at scale on one machine (make bench-scale).
#
# Generates a corpus of DOCS documents (default 1,000,000) deterministically
# from text this machine has, runs every stage of the pipeline on it as a user
# would, and prints a table of figures with the targets and, in the same run,
# the peers: the corpus loaded raw into an FTS5 table by Python's sqlite3, the
# same queries raw in the sqlite3 shell (FTS5 bm25() ORDER BY ... LIMIT 100
# with snippet()), and python3-faiss searching the same index.
#
# The text: real sentences, re-mixed.  Sentences are taken, in this order,
# from the four test collections in ../shared/data (when present; said when
# not), the project's samples/, and the plain-text and gzipped files of
# /usr/share/doc; each document is a run of sentences drawn by a fixed-seed
# generator (300 to 2,000 bytes, about 1.16 KB on average), its title the
# first words of another.  The same sources give the same corpus; the
# sentence pool's SHA-256 is printed so that two runs can be compared.
# Queries (QUERIES, default 200): the collections' queries of at least 10
# words, cut at 20, topped up with sentences of the pool.
#
# Stages: ingest (--no-postings); the postings file (ev-ingest --postings,
# which a plain ev-ingest run makes at its end); re-ingest of the unchanged
# corpus; ev-embed --train;
# ev-embed --pending (every chunk); ev-embed-load (the default factory for the
# size); recall@10 of ev-search-vec against exact search; then each query
# run alone, one process per query as a user runs it, for the text lane (its
# defaults), the sqlite3 shell, the vector lane, python3-faiss and the whole
# scripts/ev-hybrid; the systems take turns query by query.
#
# Variables: DOCS (documents), QUERIES, SEED (the generator's, default 1),
# WORK=DIR (work in DIR and keep it: a second run reuses its corpus and,
# with REUSE=1, its store and index, to time the queries again), NICE
# (default 10: the machine is shared), PEERS=0 (leave the peers out),
# VECTORS=0 (the text lane alone: no training, embedding, index or hybrid).
# Each figure is also printed on standard error as soon as it is measured,
# with the CPU time beside the wall time (on a shared machine the wall time
# says as much about the other work as about evkit).
# At 1 M documents the run takes more than an hour and needs about 20 GB of
# disk at its peak (the store, the vectors' JSON Lines, the peer's table).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
bin=$(cd "${1:-$top/bin}" && pwd)
DOCS=${DOCS:-1000000}
QUERIES=${QUERIES:-200}
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
if [ -n "${WORK:-}" ]; then
	mkdir -p "$WORK"
	work=$(cd "$WORK" && pwd)
else
	work=$(mktemp -d "${TMPDIR:-/tmp}/evkit-bench-scale.XXXXXX")
	trap 'rm -rf "$work"' EXIT INT TERM
fi
export EV_BIN="$bin"
nice -n "$NICE" $py "$top/scripts/bench-scale.py" "$top" "$bin" "$work" "$DOCS" "$QUERIES" \
    "$SEED" "$PEERS" "$REUSE" "$VECTORS"
