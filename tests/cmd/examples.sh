# Sourced by golden cases that run a man page's EXAMPLES as written.
# examples PAGE: the commands of man/PAGE's EXAMPLES section (the lines after
# "$ ", with their continuation lines), as a shell script whose scripts/ are
# the checkout's.  Needs $CASEDIR.
examples() {
	_top=$(cd "$CASEDIR/../../.." && pwd)
	sed -n '/^\.Sh EXAMPLES/,/^\.Sh SEE ALSO/p' "$_top/man/$1" | sed 's/\\e/\\/g' | awk '
		/^\$ / { sub(/^\$ /, ""); print; cont = /[|\\]$/; next }
		cont && /^    / { print; cont = /[|\\]$/; next }
		{ cont = 0 }' |
	sed -e "s|scripts/|$_top/scripts/|g"
}
