# Sourced by golden cases (. "$SKIPLIB") that need something a plain checkout
# may lack.  Skipping is exit status 77 with the reason as the last line of
# standard error; tests/cmd/run.sh shows it as "SKIP NAME: reason".

# skip REASON: stop this case here, as skipped.
skip() {
	printf '%s\n' "$1" >&2
	exit 77
}

# need_file PATH WHAT: skip unless PATH exists.  A path under $SHARED is
# named as ../shared/..., the place beside the checkout where it is looked for.
need_file() {
	[ -e "$1" ] && return 0
	case "$1" in
	"$SHARED"/*) skip "needs $2 (../shared/${1#"$SHARED"/}, beside the checkout): absent" ;;
	*) skip "needs $2 ($1): absent" ;;
	esac
}

# need_python_module MODULE PACKAGE: skip unless /usr/bin/python3 imports
# MODULE (from the Debian package PACKAGE).
need_python_module() {
	/usr/bin/python3 -c "import $1" 2>/dev/null ||
		skip "needs the Python module $1 (Debian package $2): not importable by /usr/bin/python3"
}

# need_reader: skip unless as_reader can run a command as a user that mode
# bits bind (root reads and writes through them).
need_reader() {
	[ "$(id -u)" != 0 ] || command -v setpriv >/dev/null ||
		skip "needs setpriv(1) to run as another user than root: absent"
}

# as_reader CMD [ARG...]: run CMD as such a user: this one, or, as root,
# user 65534 (need_reader first).
as_reader() {
	if [ "$(id -u)" = 0 ]; then
		setpriv --reuid=65534 --regid=65534 --clear-groups "$@"
	else
		"$@"
	fi
}
