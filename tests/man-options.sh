#!/bin/sh
# Hold each command's man page to its option table.  For every command of BIN
# whose options come from a table (it answers --list-options), check that:
#   - every flag it accepts has an item in the man page's OPTIONS
#     (".It Fl -NAME" or ".It Fl X"), and every config key is named
#     (".Cm KEY", a key "a.*" as ".Cm a" );
#   - the item of every number states its range and default as --help does:
#     "from LO to HI" and "default D";
#   - every flag the man page's OPTIONS lists is one the command accepts;
#   - the SYNOPSIS names every flag the command accepts, --help and --version
#     included;
#   - the usage lines of --help (up to its first empty line) name every flag
#     of the option table.
# Commands not yet table-driven are named and counted as skipped.
# Usage: tests/man-options.sh BIN.  Prints "man-options: N passed, N failed, N skipped".
set -u
bin=$(cd "${1:?usage: man-options.sh BIN}" && pwd)
top=$(cd "$(dirname "$0")/.." && pwd)
pass=0 fail=0 skip=0
tmp=$(mktemp -d "${TMPDIR:-/tmp}/evkit-man.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM

# The OPTIONS section of a man page, one item (".It" line and its text) per
# record, items separated by a line "@@".
items() {
	awk '/^\.Sh OPTIONS/ { on = 1; next } /^\.Sh / { on = 0 }
		on && /^\.It / { print "@@" } on { print }' "$1"
}

# The flags the SYNOPSIS of man page $1 names, one a line ("--help", "-k"):
# the words after an "Fl" up to the next macro ("Fl -help | -version").
synopsis_flags() {
	awk '/^\.Sh SYNOPSIS/ { on = 1; next } /^\.Sh / { on = 0 }
		on { fl = 0
			for (i = 1; i <= NF; i++) {
				w = $i
				sub(/^\./, "", w)
				if (w == "Fl") fl = 1
				else if (w ~ /^[A-Z][a-z]$/) fl = 0
				else if (fl && w ~ /^-?[A-Za-z0-9][A-Za-z0-9-]*$/) print "-" w
			}
		}' "$1"
}

for prog in "$bin"/ev-*; do
	name=$(basename "$prog")
	man=$top/man/$name.1
	if ! "$prog" --list-options >"$tmp/list" 2>/dev/null; then
		echo "SKIP $name: options not yet declared in a table"
		skip=$((skip + 1))
		continue
	fi
	items "$man" >"$tmp/items"
	bad=0
	while IFS='	' read -r long short key type lo hi def; do
		case $long in config | log | help | version) continue ;; esac
		# A config key alone (no flag): named in the man page, as below.
		if [ "$long$short" = -- ]; then
			grep -q "^\\.Cm ${key%.\*}\\([ .]\\|\$\\)" "$man" ||
				{ echo "FAIL $name: config key '$key' is not named in the man page"; bad=1; }
			continue
		fi
		# The item of this option: its .It line names the flag.
		pat="^\\.It Fl (-$long|$short)( |\n)"
		item=$(awk -v pat="$pat" 'BEGIN { RS = "@@\n" } $0 ~ pat' "$tmp/items")
		flagname=$([ "$long" != - ] && echo "--$long" || echo "-$short")
		if [ -z "$item" ]; then
			echo "FAIL $name: $flagname has no item in the man page's OPTIONS"
			bad=1
			continue
		fi
		case $type in int | num)
			printf '%s\n' "$item" | tr '\n' ' ' | grep -q "from $lo to $hi" ||
				{ echo "FAIL $name: $flagname: the man page does not say 'from $lo to $hi'"; bad=1; }
			printf '%s\n' "$item" | tr '\n' ' ' | grep -q "default $def" ||
				{ echo "FAIL $name: $flagname: the man page does not say 'default $def'"; bad=1; }
			;;
		esac
		if [ "$key" != - ]; then
			k=${key%.\*}
			grep -q "^\\.Cm $k\\([ .]\\|\$\\)" "$man" ||
				{ echo "FAIL $name: config key '$key' is not named in the man page"; bad=1; }
		fi
	done <"$tmp/list"
	# The SYNOPSIS names every flag (--help and --version too).
	synopsis_flags "$man" >"$tmp/synopsis"
	while IFS='	' read -r long short rest; do
		[ "$long$short" = -- ] && continue
		grep -qx -- "--$long" "$tmp/synopsis" || grep -qx -- "-$short" "$tmp/synopsis" ||
			{ echo "FAIL $name: the SYNOPSIS does not name --$long"; bad=1; }
	done <"$tmp/list"
	# The usage lines of --help name every flag of the table.
	"$prog" --help | awk 'NF == 0 { exit } { print }' >"$tmp/usage"
	while IFS='	' read -r long short rest; do
		case $long in config | log | help | version) continue ;; esac
		[ "$long$short" = -- ] && continue
		grep -Eq -- "(^|[^A-Za-z0-9_-])--$long([^A-Za-z0-9_-]|\$)" "$tmp/usage" ||
			{ [ "$short" != - ] &&
			grep -Eq -- "(^|[^A-Za-z0-9_-])-$short([^A-Za-z0-9_-]|\$)" "$tmp/usage"; } ||
			{ echo "FAIL $name: the usage lines of --help do not name --$long"; bad=1; }
	done <"$tmp/list"
	# Every flag of the man page's OPTIONS is one the command has.
	# (mdoc: "Fl -qrels" is --qrels, "Fl k" is -k)
	for f in $(sed -n 's/^\.It Fl \(-\{0,1\}[a-z][a-z-]*\).*/\1/p' "$tmp/items"); do
		case $f in
		-*) grep -q "^${f#-}	" "$tmp/list" && f=-$f ;;
		*) grep -q "^[^	]*	$f	" "$tmp/list" ;;
		esac || { echo "FAIL $name: the man page lists $f, which $name does not accept"; bad=1; }
	done
	if [ "$bad" = 0 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); fi
done
echo "man-options: $pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
