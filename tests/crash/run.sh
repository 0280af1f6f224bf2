#!/usr/bin/env bash
# Crash safety, concurrency and write errors: run every tests/crash/NN-*.sh.
#
#   tests/crash/run.sh BIN [PATTERN]
#
# Each script is run with bash, BIN's absolute path as $1, in a fresh scratch
# directory, with lib.sh's helpers available (it sources them).  A script
# prints one line per check, "ok WHAT", "FAIL WHAT: WHY" or "skip WHAT: WHY"
# (it cannot run here); the runner counts them (a script that exits non-zero
# without a FAIL line counts as one failure) and prints
# "crash: N passed, M failed, K skipped" last.
set -u
. "$(dirname "$0")/../runner.sh"
runner_start crash "$@"
pass=0 fail=0 skip=0
for t in "$here"/[0-9]*.sh; do
	name=$(basename "$t" .sh)
	case "$name" in *"$pattern"*) ;; *) continue ;; esac
	mkdir -p "$scratch/$name"
	(cd "$scratch/$name" && CRASH_LIB="$here/lib.sh" CRASH_DIR="$here" bash "$t" "$bin") \
	    >"$scratch/$name.log" 2>&1
	status=$?
	p=$(grep -c '^ok ' "$scratch/$name.log")
	f=$(grep -c '^FAIL ' "$scratch/$name.log")
	s=$(grep -c '^skip ' "$scratch/$name.log")
	if [ "$status" -ne 0 ] && [ "$f" -eq 0 ]; then
		echo "FAIL $name: exit status $status"
		f=1
	fi
	pass=$((pass + p))
	fail=$((fail + f))
	skip=$((skip + s))
	sed -n "s/^/$name: /p" "$scratch/$name.log" | grep -E "^$name: (ok|FAIL|skip|note) " || true
	[ "$f" -gt 0 ] && grep -v -E '^(ok|FAIL|skip|note) ' "$scratch/$name.log" | tail -15 | sed 's/^/  | /'
done
printf 'crash: %d passed, %d failed, %d skipped\n' "$pass" "$fail" "$skip"
[ "$fail" -eq 0 ]
