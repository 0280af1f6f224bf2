#!/bin/sh
# bench-json.sh: the measurement behind evkit's JSON library (docs/speed.md, "Why
# Jansson"): parse and emit speed of Jansson, json-c and cJSON on JSON Lines of
# realistic hit records, side by side with ratios to Jansson, and where each
# library says a bad line is wrong.  Usage: scripts/bench-json.sh [BIN]
# (BIN is unused: the program is built here from scripts/bench-json/).
# BENCH_JSON_LINES sets the number of records (100000).
set -eu
dir=$(cd "$(dirname "$0")/bench-json" && pwd)
lines=${BENCH_JSON_LINES:-100000}
work=$(mktemp -d "${TMPDIR:-/tmp}/bench-json.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
${CC:-cc} -std=c11 -O2 -Wall -Wextra -D_GNU_SOURCE -o "$work/bench-json" "$dir"/*.c \
	-ljansson -ljson-c -lcjson
"$work/bench-json" gen "$lines" "$work/hits.jsonl"
"$work/bench-json" speed "$work/hits.jsonl"
echo
echo "Where each library says a bad line is wrong (1-based columns; ACCEPTED: not refused):"
echo
"$work/bench-json" errors
