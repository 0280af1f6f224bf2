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
	printf '\n== %s\n' "$(basename "$b" .sh)"
	case $b in
	*/bench-scale.sh) echo "(make bench-scale: an hour at its size)"; continue ;;
	# a tenth of its full size here (an hour and 11 GB); make bench-maxsim: all of it
	*/bench-maxsim.sh) PAGES=${PAGES:-1000} sh "$b" "$bin" || status=1 ;;
	*) sh "$b" "$bin" || status=1 ;;
	esac
done
exit $status
