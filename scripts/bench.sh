#!/bin/sh
# make bench: run every scripts/bench-*.sh in turn.  Each measures evkit
# against a peer in the same run and prints its figures (ratios, not only
# absolute times: these machines are shared and noisy).
set -u
bin=$(cd "${1:-bin}" && pwd)
dir=$(cd "$(dirname "$0")" && pwd)
status=0
for b in "$dir"/bench-*.sh; do
	[ -f "$b" ] || continue
	case $b in */bench-scale.sh) continue ;; esac	# make bench-scale: an hour at its size
	printf '\n== %s\n' "$(basename "$b" .sh)"
	sh "$b" "$bin" || status=1
done
exit $status
