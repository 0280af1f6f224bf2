#!/bin/sh
# Check that lib/ reads bottom-up: every #include "x.h" in lib/y.{h,c,cpp}
# names a module of a lower layer than y's (lib/LAYERS), and that every
# module is placed in a layer.  Prints one line per violation.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top/lib" || exit 1
# Each module lives in the folder of its part of the architecture
# (base, cli, store, lanes, merge); LAYERS orders the modules themselves.
layer_of() {
	awk -v m="$1" '!/^#/ { for (i = 2; i <= NF; i++) if ($i == m) print $1 }' LAYERS
}
bad=0 n=0
stray=$(ls ./*.c ./*.h ./*.cpp 2>/dev/null)
if [ -n "$stray" ]; then
	for f in $stray; do echo "layers: lib/${f#./}: a module outside the folders of lib/"; done
	bad=$((bad + $(echo "$stray" | wc -l)))
fi
for f in */*.h */*.c */*.cpp; do
	[ -f "$f" ] || continue
	mod=$(basename "${f%.*}")
	[ "$mod" = faiss_capi ] && continue	# Faiss's own C API, no evkit includes
	ly=$(layer_of "$mod")
	if [ -z "$ly" ]; then
		echo "layers: lib/$f: module '$mod' is not placed in lib/LAYERS"
		bad=$((bad + 1))
		continue
	fi
	for inc in $(sed -n 's/^#include "\([a-z_0-9]*\)\.h".*/\1/p' "$f"); do
		n=$((n + 1))
		[ "$inc" = "$mod" ] && continue
		il=$(layer_of "$inc")
		# cli and opt are the bottom of cmd/: only opt (cli's option
		# tables) may include cli, and no lib/ module includes either.
		cmdside=0
		case $inc in cli) [ "$mod" = opt ] || cmdside=1 ;; opt) cmdside=1 ;; esac
		if [ "$cmdside" = 1 ] || [ -z "$il" ] || [ "$il" -ge "$ly" ]; then
			echo "layers: lib/$f (layer $ly) includes $inc.h (layer ${il:-unplaced})"
			bad=$((bad + 1))
		fi
	done
done
echo "layers: $n includes checked, $bad violations"
[ "$bad" -eq 0 ]
