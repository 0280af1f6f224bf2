#!/bin/sh
# Check that lib/ reads bottom-up (make layers).  Usage: check-layers.sh [LIBDIR]
# (default: the checkout's lib/).  Prints one line per violation and a count;
# exits 1 when there is any.  Every #include "x.h" in LIBDIR/f/y.{h,c,cpp}
# must name
#   - a module of a lower layer than y's (LIBDIR/LAYERS, which places every
#     module), and
#   - a module of y's own folder or of a folder below it: the folders are
#     ranked base < cli < store < lanes < merge < judge, the parts of the
#     architecture bottom-up, so that a folder's name says how high its
#     modules stand and an include never runs up them (store/ never includes
#     a lanes/ header, whatever the layer numbers say).
# cli and opt are the bottom of cmd/: only opt may include cli, and no other
# lib/ module includes either.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
lib=${1:-$top/lib}
cd "$lib" || exit 1
folders="base cli store lanes merge judge"
layer_of() {
	awk -v m="$1" '!/^#/ { for (i = 2; i <= NF; i++) if ($i == m) print $1 }' LAYERS
}
# rank_of FOLDER: its place in $folders (0 for base), empty for another folder
rank_of() {
	r=0
	for f in $folders; do
		[ "$f" = "$1" ] && { echo "$r"; return; }
		r=$((r + 1))
	done
}
# folder_of MODULE: the folder holding MODULE.h (or .c, .cpp), empty if none
folder_of() {
	for f in */"$1".h */"$1".c */"$1".cpp; do
		[ -f "$f" ] && { echo "${f%%/*}"; return; }
	done
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
	dir=${f%%/*}
	rank=$(rank_of "$dir")
	if [ -z "$rank" ]; then
		echo "layers: lib/$f: folder '$dir' is not one of: $folders"
		bad=$((bad + 1))
		continue
	fi
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
		cmdside=0
		case $inc in cli) [ "$mod" = opt ] || cmdside=1 ;; opt) cmdside=1 ;; esac
		if [ "$cmdside" = 1 ] || [ -z "$il" ] || [ "$il" -ge "$ly" ]; then
			echo "layers: lib/$f (layer $ly) includes $inc.h (layer ${il:-unplaced})"
			bad=$((bad + 1))
			continue
		fi
		idir=$(folder_of "$inc")
		irank=$(rank_of "$idir")
		if [ -n "$irank" ] && [ "$irank" -gt "$rank" ]; then
			echo "layers: lib/$f ($dir/) includes $inc.h ($idir/): up the folders ($folders)"
			bad=$((bad + 1))
		fi
	done
done
echo "layers: $n includes checked, $bad violations"
[ "$bad" -eq 0 ]
