#!/bin/sh
# Run `make demo` (scripts/demo.sh) with every ev-* command under valgrind's
# memcheck, and fail on any invalid read or write, use of uninitialised
# memory, or memory definitely or indirectly lost.
#
#   scripts/valgrind.sh BIN
#
# Each command of BIN is replaced, on PATH, by a wrapper that runs it under
# valgrind with its own log (build/valgrind/vg.PID.log).  Memory that is
# "still reachable" or "possibly lost" at exit (OpenMP's thread pool, libgomp
# and Faiss's static tables) is not an error.  Prints one line per command
# run and "valgrind: N runs, E with errors"; exits 1 when E > 0.
set -u
bin=$(cd "${1:?usage: valgrind.sh BIN}" && pwd)
top=$(cd "$(dirname "$0")/.." && pwd)
command -v valgrind >/dev/null 2>&1 || { echo "valgrind: not installed (make deps)"; exit 1; }
logs=$top/build/valgrind
wrap=$logs/bin
rm -rf "$logs"
mkdir -p "$wrap"
for p in "$bin"/ev-*; do
	name=$(basename "$p")
	cat >"$wrap/$name" <<WRAP
#!/bin/sh
exec valgrind -q --tool=memcheck --leak-check=full --show-leak-kinds=definite,indirect \\
    --errors-for-leak-kinds=definite,indirect --track-origins=yes --error-exitcode=99 \\
    --log-file="$logs/vg.$name.%p.log" "$p" "\$@"
WRAP
	chmod +x "$wrap/$name"
done
"$top/scripts/demo.sh" "$wrap" >"$logs/demo.out" 2>&1
status=$?
runs=0 bad=0
for f in "$logs"/vg.*.log; do
	[ -f "$f" ] || continue
	runs=$((runs + 1))
	if [ -s "$f" ]; then
		bad=$((bad + 1))
		echo "valgrind: $(basename "$f"):"
		grep -E '(Invalid|uninitialised|definitely lost|indirectly lost|at 0x|by 0x)' "$f" | head -12 | sed 's/^/  /'
	fi
done
[ $status -ne 0 ] && { echo "valgrind: the demo failed (exit $status):"; tail -5 "$logs/demo.out"; bad=$((bad + 1)); }
echo "valgrind: $runs runs, $bad with errors"
[ $bad -eq 0 ]
