#!/bin/sh
# Fuzz evkit's parsers with libFuzzer (clang's -fsanitize=fuzzer,address,undefined).
#
#   scripts/fuzz.sh [TARGET ...]        (make fuzz)
#
# Each target is tests/fuzz/fuzz_NAME.c.  lib/*/*.c is compiled once with the
# fuzzing instrumentation into $FUZZ_BUILD/libevkit-fuzz.a (a file that does
# not compile is left out with a note, so that the parsers can be fuzzed while
# other modules are being written); a target whose "requires:" headers are not
# there yet is skipped with a note.  Then, for each target:
#   1. every file in tests/fuzz/regress/NAME/ (inputs that once crashed) is
#      run once: a crash there is a regression;
#   2. the target is fuzzed for FUZZ_SECONDS (default 60) seconds, starting
#      from tests/fuzz/corpus/NAME/ (committed seeds) and $FUZZ_BUILD/corpus/NAME/
#      (what earlier runs found), with tests/fuzz/NAME.dict when present.
# A crash is saved as $FUZZ_BUILD/crashes/NAME/crash-*; copy it into
# tests/fuzz/regress/NAME/ once fixed.  Prints one line per target and
# "fuzz: N targets, T seconds, C crashes"; exits 1 on any crash.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
CLANG=${CLANG:-clang-14}
FUZZ_SECONDS=${FUZZ_SECONDS:-60}
FUZZ_BUILD=${FUZZ_BUILD:-build-fuzz}
FUZZ_JOBS=${FUZZ_JOBS:-1}
SAN='-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer'
CFLAGS="-std=c11 -D_GNU_SOURCE -g -O1 -Wall -Wextra -Werror=implicit-function-declaration $(for d in lib/*/; do printf -- '-I%s ' "${d%/}"; done) -DEV_VERSION=\"$(cat VERSION 2>/dev/null || echo 0)\""
LIBS='-lsqlite3 -ljansson -lyaml -lm -lpthread -ldl'

if ! command -v "$CLANG" >/dev/null 2>&1; then
	echo "fuzz: $CLANG not found (apt-get install clang-14)" >&2
	exit 1
fi
mkdir -p "$FUZZ_BUILD/lib" "$FUZZ_BUILD/corpus" "$FUZZ_BUILD/crashes"

# 1. the library, instrumented
objs=""
for c in lib/*/*.c; do
	o="$FUZZ_BUILD/lib/$(basename "$c" .c).o"
	newer=$(find lib -name '*.h' -newer "$o" 2>/dev/null | head -1)
	if [ ! -f "$o" ] || [ "$c" -nt "$o" ] || [ -n "$newer" ]; then
		# shellcheck disable=SC2086
		if ! $CLANG $CFLAGS $SAN -c -o "$o" "$c" 2>"$FUZZ_BUILD/lib/$(basename "$c" .c).log"; then
			echo "fuzz: note: $c does not compile yet, left out" >&2
			rm -f "$o"
			continue
		fi
	fi
	objs="$objs $o"
done
rm -f "$FUZZ_BUILD/libevkit-fuzz.a"
# shellcheck disable=SC2086
ar rcs "$FUZZ_BUILD/libevkit-fuzz.a" $objs

# 2. the targets
if [ $# -gt 0 ]; then
	targets=$(for t in "$@"; do echo "tests/fuzz/fuzz_${t#fuzz_}.c"; done)
else
	targets=$(ls tests/fuzz/fuzz_*.c)
fi
ntargets=0 crashes=0 total=0
for src in $targets; do
	name=$(basename "$src" .c)
	name=${name#fuzz_}
	missing=""
	for h in $(sed -n 's/.*requires: *\(.*\)\*\/.*/\1/p' "$src"); do
		[ -f "$h" ] || missing="$missing $h"
	done
	if [ -n "$missing" ]; then
		echo "fuzz: $name: skipped, missing$missing"
		continue
	fi
	exe="$FUZZ_BUILD/fuzz_$name"
	# shellcheck disable=SC2086
	if ! $CLANG $CFLAGS -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
	    -fno-omit-frame-pointer -o "$exe" "$src" "$FUZZ_BUILD/libevkit-fuzz.a" $LIBS \
	    2>"$FUZZ_BUILD/fuzz_$name.log"; then
		echo "fuzz: $name: does not build:"
		head -20 "$FUZZ_BUILD/fuzz_$name.log"
		crashes=$((crashes + 1))
		continue
	fi
	ntargets=$((ntargets + 1))
	opts="-timeout=10 -rss_limit_mb=2048 -max_len=65536 -print_final_stats=1"
	[ -f "tests/fuzz/$name.dict" ] && opts="$opts -dict=tests/fuzz/$name.dict"

	# regressions: each once
	if [ -d "tests/fuzz/regress/$name" ] && [ -n "$(ls "tests/fuzz/regress/$name")" ]; then
		# shellcheck disable=SC2086
		if ! "$exe" $opts "tests/fuzz/regress/$name"/* >"$FUZZ_BUILD/fuzz_$name.regress.log" 2>&1; then
			echo "fuzz: $name: REGRESSION (see $FUZZ_BUILD/fuzz_$name.regress.log)"
			crashes=$((crashes + 1))
			continue
		fi
	fi

	mkdir -p "$FUZZ_BUILD/corpus/$name" "$FUZZ_BUILD/crashes/$name"
	seeds=""
	[ -d "tests/fuzz/corpus/$name" ] && seeds="tests/fuzz/corpus/$name"
	before=$(ls "$FUZZ_BUILD/crashes/$name" | wc -l)
	start=$(date +%s)
	# shellcheck disable=SC2086
	"$exe" $opts -max_total_time="$FUZZ_SECONDS" -jobs="$FUZZ_JOBS" -workers="$FUZZ_JOBS" \
	    -artifact_prefix="$FUZZ_BUILD/crashes/$name/" \
	    "$FUZZ_BUILD/corpus/$name" $seeds >"$FUZZ_BUILD/fuzz_$name.log" 2>&1
	status=$?
	took=$(($(date +%s) - start))
	total=$((total + took))
	after=$(ls "$FUZZ_BUILD/crashes/$name" | wc -l)
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$FUZZ_BUILD/fuzz_$name.log" | \
	    awk '{ s += $1 } END { print s + 0 }')
	cov=$(grep -o 'cov: [0-9]*' "$FUZZ_BUILD/fuzz_$name.log" | tail -1)
	if [ "$status" -ne 0 ] || [ "$after" -gt "$before" ]; then
		echo "fuzz: $name: CRASH after $took s (see $FUZZ_BUILD/fuzz_$name.log, $FUZZ_BUILD/crashes/$name/)"
		grep -m 3 -E 'ERROR|SUMMARY|runtime error' "$FUZZ_BUILD/fuzz_$name.log" | sed 's/^/  /'
		crashes=$((crashes + 1))
	else
		echo "fuzz: $name: $runs runs in $took s, $cov, corpus $(ls "$FUZZ_BUILD/corpus/$name" | wc -l)"
	fi
	echo "$(date -u +%FT%TZ) $name $took $runs $status" >>"$FUZZ_BUILD/history.log"
done
echo "fuzz: $ntargets targets, $total seconds, $crashes crashes"
[ "$crashes" -eq 0 ]
