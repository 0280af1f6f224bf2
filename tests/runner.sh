# runner.sh: how every test runner (tests/*/run.sh) starts; sourced, then
#   runner_start KIND "$@"
# reads the runner's arguments BIN [PATTERN] and sets
#   bin      BIN's absolute path (a usage error when it is missing)
#   pattern  PATTERN, or empty (every case)
#   here     the runner's own folder (absolute)
#   scratch  a fresh folder ${TMPDIR:-/tmp}/evkit-KIND.XXXXXX, removed when
#            the runner exits unless $KEEP_SCRATCH is not empty
runner_start() {
	bin=$(cd "${2:?usage: run.sh BIN [PATTERN]}" && pwd) || exit 2
	pattern=${3:-}
	here=$(cd "$(dirname "$0")" && pwd)
	scratch=$(mktemp -d "${TMPDIR:-/tmp}/evkit-$1.XXXXXX") || exit 1
	trap '[ -n "${KEEP_SCRATCH:-}" ] || rm -rf "$scratch"' EXIT INT TERM
}
