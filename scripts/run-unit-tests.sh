#!/bin/sh
# Run each Criterion test binary given; print one summary line for all,
# "unit: N passed, M failed, K skipped" (K: tests that called cr_skip_test()).
set -u
pass=0 fail=0 skip=0
for t in "$@"; do
	out=$("$t" --jobs 2 2>&1)
	status=$?
	line=$(printf '%s\n' "$out" | grep 'Synthesis:' | tail -1)
	p=$(printf '%s\n' "$line" | sed -n 's/.*Passing: \([0-9]*\).*/\1/p')
	f=$(printf '%s\n' "$line" | sed -n 's/.*Failing: \([0-9]*\).*/\1/p')
	c=$(printf '%s\n' "$line" | sed -n 's/.*Crashing: \([0-9]*\).*/\1/p')
	s=$(printf '%s\n' "$out" | grep -c '^\[SKIP\]')
	pass=$((pass + ${p:-0}))
	skip=$((skip + s))
	fail=$((fail + ${f:-0}))
	if [ "$status" -ne 0 ] || [ -z "$line" ]; then
		printf '%s\n' "$out" | grep -v '^\[----\]' | tail -30
		[ "${f:-0}" -eq 0 ] && fail=$((fail + 1))
	fi
	printf '%-40s %s\n' "$(basename "$t")" "${line:-no summary (status $status)}"
done
printf 'unit: %d passed, %d failed, %d skipped\n' "$pass" "$fail" "$skip"
[ "$fail" -eq 0 ]
