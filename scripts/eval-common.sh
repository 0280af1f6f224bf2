# eval-common.sh: what the scripts/eval*.sh share, sourced by them after
# they set prog (their name), top (the checkout) and collections (their
# default list).  Reads their options (--plan, --data, --keep, --reuse,
# --collections, then BIN), puts BIN first on PATH, defines coldir() and
# judge(), says where the collections belong and exits 0 when they are not
# there, and sets work: the --keep directory, else a scratch directory
# removed at exit.
data=$top/../shared/data
plan=$top/samples/plan.yaml
keep= reuse=
while [ $# -gt 0 ]; do
	case $1 in
	--plan) plan=${2:?}; shift 2 ;;
	--data) data=${2:?}; shift 2 ;;
	--keep) keep=${2:?}; shift 2 ;;
	--reuse) reuse=1; shift ;;
	--collections) collections=${2:?}; shift 2 ;;
	-*) echo "$prog: unknown option '$1'" >&2; exit 2 ;;
	*) break ;;
	esac
done
bin=$(cd "${1:-$top/bin}" && pwd)
PATH=$bin:$PATH
export EV_BIN=$bin

# The files of a collection: Cranfield keeps its JSON Lines in jsonl/.
coldir() {
	if [ -f "$data/$1/jsonl/corpus.jsonl" ]; then echo "$data/$1/jsonl"; else echo "$data/$1"; fi
}

missing=
for c in $collections; do
	d=$(coldir "$c")
	for f in corpus.jsonl queries.jsonl qrels.tsv; do
		[ -r "$d/$f" ] || missing="$missing $d/$f"
	done
done
if [ -n "$missing" ]; then
	echo "$prog: skipped: the test collections are not there (missing:$missing)."
	echo "Put them in $data/NAME/ (corpus.jsonl, queries.jsonl, qrels.tsv a collection, for"
	echo "NAME in: $collections), or give another folder: --data DIR."
	exit 0
fi

if [ -n "$keep" ]; then
	mkdir -p "$keep"
	work=$(cd "$keep" && pwd)
else
	work=$(mktemp -d "${TMPDIR:-/tmp}/evkit-$prog.XXXXXX")
	trap 'rm -rf "$work"' EXIT INT TERM
fi

# judge C RUN FILE: FILE's hits judged against collection C's judgements.
# Prints their nDCG@10 and appends a line per judged query to $perquery (C,
# RUN, the query id, its nDCG@10), as scripts/loo-choose.awk reads them.
judge() {
	ev-eval --per-query --qrels "$(coldir "$1")/qrels.tsv" "$3" >"$work/judge.jsonl"
	grep '"query_id"' "$work/judge.jsonl" |
		jq -r --arg c "$1" --arg r "$2" '"\($c)\t\($r)\t\(.query_id)\t\(.["ndcg@10"])"' >>"$perquery"
	grep -v '"query_id"' "$work/judge.jsonl" | sed 's/.*"ndcg@10":\([0-9.]*\).*/\1/'
}
