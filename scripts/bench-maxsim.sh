#!/bin/sh
# bench-maxsim.sh BIN: the late-interaction lane (ev-search-mv) against a
# brute-force MaxSim in numpy, same run, same vectors.
#
#   PAGES pages of VECS vectors of DIM dimensions (defaults 10000 x 1024 x
#   128: 10.24 million vectors, 5.2 GB of float32), QUERIES queries of QVECS
#   vectors (defaults 20 x 32), generated deterministically (SEED) and
#   streamed to disk (scripts/bench-maxsim.py gen); loaded in bulk with
#   ev-mv-load --npy; the generated .npy is then removed, so that the page
#   cache holds one copy of the vectors, the index's data file, which both
#   sides read (numpy maps it too).
#
#   Printed: the load (time, factory); per query, ev-search-mv (Faiss
#   candidates, then exact MaxSim of each; nprobe, token-k, candidates as
#   set below) and ev-search-mv --exact (every page scored, in C with BLAS)
#   against numpy scoring every page; the ratio; recall@10 of the candidate
#   path against the exact ranking, and whether --exact ranks exactly as
#   numpy does.  Needs /usr/bin/python3 with numpy (python3-numpy) and
#   about 11 GB of free disk in TMPDIR while the index is built.
set -eu
bin=$(cd "${1:?usage: bench-maxsim.sh BIN}" && pwd)
top=$(cd "$(dirname "$0")/.." && pwd)
py=/usr/bin/python3
PAGES=${PAGES:-10000} VECS=${VECS:-1024} DIM=${DIM:-128}
QUERIES=${QUERIES:-20} QVECS=${QVECS:-32} SEED=${SEED:-7} K=10
CANDIDATES=${CANDIDATES:-1000} TOKEN_K=${TOKEN_K:-100} NPROBE=${NPROBE:-32}
if ! "$py" -c 'import numpy' 2>/dev/null; then
	echo "SKIP bench-maxsim: $py has no numpy (apt-get install python3-numpy)"
	exit 0
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/evkit-bench-maxsim.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
cd "$work"
export PATH="$bin:$PATH"

now() { date +%s%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", (b - a) / 1e9 }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", (b > 0 ? a / b : 0) }'; }
per() { awk -v c="$1" -v q="$QUERIES" 'BEGIN { printf "%.4f", c / q }'; }
timed() { "$py" "$top/scripts/bench-time.py" 1 "$@"; }	# OUT CMD...: "WALL CPU"

echo "pages $PAGES x $VECS vectors x $DIM dimensions; $QUERIES queries x $QVECS vectors; k=$K"
t0=$(now)
"$py" "$top/scripts/bench-maxsim.py" gen "$PAGES" "$VECS" "$DIM" "$QUERIES" "$QVECS" "$SEED" .
t1=$(now)
echo "generated in $(secs "$t0" "$t1") s: $(du -h vectors.npy | cut -f1) of vectors"
set -- $(timed /dev/null sh -c 'exec ev-mv-load --index pages.mvi --model synthetic --npy vectors.npy offsets.jsonl 2>load.err')
echo "ev-mv-load --npy: $1 s wall, $2 s CPU: $(tail -1 load.err | sed 's/^ev-mv-load: //')"
rm -f vectors.npy
ls -l pages.mvi pages.mvi.*.npy | awk '{ printf "  %s: %.1f MB\n", $NF, $5 / 1e6 }'

# Each side once over the queries to warm the page cache, then timed.
ev-search-mv --index pages.mvi -k "$K" --exact queries.jsonl >/dev/null
"$py" "$top/scripts/bench-maxsim.py" brute pages.mvi queries.jsonl "$K" numpy.out >/dev/null

set -- $(timed cand.jsonl ev-search-mv --index pages.mvi -k "$K" --candidates "$CANDIDATES" \
    --token-k "$TOKEN_K" --nprobe "$NPROBE" queries.jsonl)
cand=$(per "$1") cand_cpu=$(per "$2")
set -- $(timed exact.jsonl ev-search-mv --index pages.mvi -k "$K" --exact queries.jsonl)
exact=$(per "$1") exact_cpu=$(per "$2")
set -- $("$py" "$top/scripts/bench-maxsim.py" brute pages.mvi queries.jsonl "$K" numpy.out)
numpy=$1 numpy_cpu=$2

set -- $("$py" "$top/scripts/bench-maxsim.py" compare cand.jsonl exact.jsonl "$K")
recall=$1 same=$2 nq=$3
set -- $("$py" "$top/scripts/bench-maxsim.py" compare exact.jsonl numpy.out "$K")
erecall=$1 esame=$2

printf '%-58s %9s %9s %8s\n' "search, per query" "wall s" "CPU s" "vs numpy"
printf '%-58s %9s %9s %8s\n' "ev-search-mv (candidates $CANDIDATES, token-k $TOKEN_K, nprobe $NPROBE)" \
    "$cand" "$cand_cpu" "$(ratio "$numpy" "$cand")x"
printf '%-58s %9s %9s %8s\n' "ev-search-mv --exact (every page, C + BLAS)" "$exact" "$exact_cpu" \
    "$(ratio "$numpy" "$exact")x"
printf '%-58s %9s %9s %8s\n' "numpy brute force (every page)" "$numpy" "$numpy_cpu" "1.0x"
echo "recall@$K of the candidate path against exact MaxSim: $recall ($same of $nq queries ranked identically)"
echo "--exact against numpy: recall@$K $erecall, $esame of $nq queries ranked identically"
