#!/bin/sh
# Golden tests of the commands.  Each case is tests/cmd/PROG/NN-what.sh, a
# shell script run with sh in a fresh scratch directory, with bin/ first on
# PATH and these variables set:
#   TESTDATA  tests/data (shared inputs)     SAMPLES  samples/
#   CASEDIR   the case's own directory       SHARED   ../shared (may be absent)
# Its standard output is compared with NN-what.out, its standard error with
# NN-what.err when that file exists, and its exit status with the number in
# NN-what.status (0 when there is none).  A case without its NN-what.out
# fails (a case that compares nothing would pass whatever it did); a file a
# folder's cases share is named otherwise (store.inc, mkstore), never .sh.
# Run: tests/cmd/run.sh BIN [PATTERN]
#
# A case that cannot run here (it needs $SHARED, the Cranfield collection
# beside the checkout, or an optional tool) skips: it exits 77 with the reason
# on its last line of standard error (tests/cmd/skip.sh, sourced as
# . "$SKIPLIB", has need_file and skip for that), and is shown as
# "SKIP NAME: reason" and counted as skipped, neither passed nor failed.
# A case whose .status is 77 is compared as usual instead.  The last line is
# "golden: N passed, M failed, K skipped"; the exit status is 1 when M > 0.
set -u
# OpenBLAS picks its kernels by processor, and those with fused multiply-add
# round otherwise: the cases' little store of 4-dimensional vectors has near
# ties that then fall the other way (ev-pack's and ev-hybrid's MMR cases on
# an AMD processor).  On x86-64 the cases run on its SSE3 kernels, which every
# such processor has, so that the expected outputs hold on any of them.
case $(uname -m) in
x86_64 | i?86) export OPENBLAS_CORETYPE=Prescott ;;
esac
. "$(dirname "$0")/../runner.sh"
runner_start golden "$@"
top=$(cd "$here/../.." && pwd)
pass=0 fail=0 skip=0

for case in "$top"/tests/cmd/*/*.sh; do
	[ -f "$case" ] || continue
	name=${case#"$top"/tests/cmd/}
	name=${name%.sh}
	case "$name" in *"$pattern"*) ;; *) continue ;; esac
	base=${case%.sh}
	if [ ! -f "$base.out" ]; then
		fail=$((fail + 1))
		printf 'FAIL %s: no expected output %s.out (a file the cases share is not named .sh)\n' \
			"$name" "$name"
		continue
	fi
	work="$scratch/$(echo "$name" | tr / _)"
	mkdir -p "$work"
	want_status=0
	[ -f "$base.status" ] && want_status=$(cat "$base.status")
	(cd "$work" && PATH="$bin:$PATH" TESTDATA="$top/tests/data" SAMPLES="$top/samples" \
		CASEDIR=$(dirname "$case") SHARED="$top/../shared" SKIPLIB="$top/tests/cmd/skip.sh" LC_ALL=C \
		sh "$case" >"$work/.stdout" 2>"$work/.stderr" </dev/null)
	status=$?
	if [ "$status" = 77 ] && [ "$want_status" != 77 ]; then
		skip=$((skip + 1))
		reason=$(tail -n 1 "$work/.stderr")
		printf 'SKIP %s: %s\n' "$name" "${reason:-exit status 77, no reason given}"
		continue
	fi
	why=""
	[ "$status" = "$want_status" ] || why="exit status $status, expected $want_status"
	if [ -z "$why" ] && ! cmp -s "$base.out" "$work/.stdout"; then
		why="standard output differs:
$(diff "$base.out" "$work/.stdout" | head -20)"
	fi
	if [ -z "$why" ] && [ -f "$base.err" ] && ! cmp -s "$base.err" "$work/.stderr"; then
		why="standard error differs:
$(diff "$base.err" "$work/.stderr" | head -20)"
	fi
	if [ -z "$why" ]; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		printf 'FAIL %s: %s\n' "$name" "$why"
		[ -s "$work/.stderr" ] && [ ! -f "$base.err" ] && sed 's/^/  stderr: /' "$work/.stderr" | head -5
	fi
done
printf 'golden: %d passed, %d failed, %d skipped\n' "$pass" "$fail" "$skip"
[ "$fail" -eq 0 ]
