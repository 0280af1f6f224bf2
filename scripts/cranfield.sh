#!/bin/sh
# cranfield.sh: convert the Cranfield 1400 collection (SMART format) into
# evkit's JSON Lines.  Usage: scripts/cranfield.sh [-s SRC] OUTDIR
#
# Writes, in OUTDIR:
#   docs.jsonl     {"id", "title", "text", "metadata": {"authors", "bib"}}, one
#                  per document; id is the .I number, title the .T field, text
#                  the .W field (which repeats the title: title + text, as the
#                  README's reference figures were measured)
#   queries.jsonl  {"query_id", "query"}; query_id is the query's position in
#                  cran.qry (1..225), the numbering of the judgements, not its .I
#   qrels          "QUERY_ID DOC_ID RELEVANCE" lines; every judged pair is
#                  relevant in Cranfield, so RELEVANCE is 1 (binary)
# SRC is the directory holding cran.all.1400, cran.qry and cranqrel (the
# Cranfield 1400 collection in SMART format); without -s, the copy that the
# project's own machines keep beside the checkout, ../shared/data/cranfield.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
src=$top/../shared/data/cranfield
if [ "${1:-}" = "-s" ]; then
	src=${2:?usage: cranfield.sh [-s SRC] OUTDIR}
	shift 2
fi
out=${1:?usage: cranfield.sh [-s SRC] OUTDIR}
for f in cran.all.1400 cran.qry cranqrel; do
	[ -r "$src/$f" ] || {
		echo "cranfield.sh: $src/$f: cannot read; name the directory that holds" \
			"cran.all.1400, cran.qry and cranqrel with -s DIR" >&2
		exit 1
	}
done
mkdir -p "$out"

# A field's lines are joined with single spaces, trimmed; JSON-escaped.
LC_ALL=C awk '
function esc(s) {
	gsub(/\\/, "\\\\", s); gsub(/"/, "\\\"", s); gsub(/\t/, " ", s)
	gsub(/[\001-\037]/, " ", s)
	return s
}
function norm(s) { gsub(/[ \t]+/, " ", s); sub(/^ /, "", s); sub(/ $/, "", s); return s }
function flush() {
	if (id == "") return
	printf "{\"id\":\"%s\",\"title\":\"%s\",\"text\":\"%s\",\"metadata\":{\"authors\":\"%s\",\"bib\":\"%s\"}}\n",
		esc(id), esc(norm(f["T"])), esc(norm(f["W"])), esc(norm(f["A"])), esc(norm(f["B"]))
	delete f
}
{ sub(/\r$/, "") }
/^\.I / { flush(); id = $2 + 0; cur = ""; next }
/^\.[TABW]$/ { cur = substr($0, 2, 1); f[cur] = ""; next }
{ if (cur != "") f[cur] = f[cur] " " $0 }
END { flush() }
' "$src/cran.all.1400" >"$out/docs.jsonl"

LC_ALL=C awk '
function esc(s) { gsub(/\\/, "\\\\", s); gsub(/"/, "\\\"", s); gsub(/[\001-\037]/, " ", s); return s }
function norm(s) { gsub(/[ \t]+/, " ", s); sub(/^ /, "", s); sub(/ $/, "", s); return s }
function flush() {
	if (n == 0) return
	printf "{\"query_id\":\"%d\",\"query\":\"%s\"}\n", n, esc(norm(q))
}
{ sub(/\r$/, "") }
/^\.I / { flush(); n++; q = ""; inw = 0; next }
/^\.W$/ { inw = 1; next }
{ if (inw) q = q " " $0 }
END { flush() }
' "$src/cran.qry" >"$out/queries.jsonl"

LC_ALL=C awk '{ sub(/\r$/, "") } NF >= 2 { print $1, $2, 1 }' "$src/cranqrel" >"$out/qrels"
