#!/bin/sh
# eval-lang.sh: the text lane's quality on real text in five languages
# (make eval-lang).  Usage: scripts/eval-lang.sh [BIN]
#
# Documents: the manual pages of 35 commands (ls, cp, ..., nice) that Debian
# ships in English (manpages, coreutils, ...), French (manpages-fr), German
# (manpages-de), Japanese (manpages-ja) and Chinese (manpages-zh), rendered by
# man(1): one document per page and language (175), its language NOT
# declared, so that it is found from the text (the share found right is
# printed).  Queries and judgements: scripts/eval-lang/queries.tsv (ten a
# language, written and judged as its header says).
#
# Prints, per language and over all: nDCG@10, MRR and Recall@10 of
# ev-search-text (defaults) beside the same documents in a plain FTS5 table
# of the tokeniser evkit had before ("porter unicode61 remove_diacritics 2",
# bm25(), the query's words OR-ed), searched through the sqlite3 shell.
# Skipped (exit 0) when the manual pages of a language are not installed.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
bin=$(cd "${1:-$top/bin}" && pwd)
PATH=$bin:$PATH
cmds="ls cp mv rm mkdir rmdir chmod chown kill sort cat head tail wc uniq cut grep find tar gzip
du df ln date echo sleep tee diff passwd login man whoami uname env nice"
# language code, then its manual directory
langs="en:/usr/share/man/man1 fr:/usr/share/man/fr/man1 de:/usr/share/man/de/man1
ja:/usr/share/man/ja/man1 zh:/usr/share/man/zh_CN/man1"
for l in $langs; do
	d=${l#*:}
	if ! ls "$d"/cp.1* >/dev/null 2>&1; then
		echo "make eval-lang: skipped: no manual pages in $d (install manpages-fr," \
		    "manpages-de, manpages-ja and manpages-zh)"
		exit 0
	fi
done
command -v man >/dev/null && command -v jq >/dev/null && command -v sqlite3 >/dev/null || {
	echo "make eval-lang: skipped: it needs man, jq and sqlite3"; exit 0; }

work=$(mktemp -d "${TMPDIR:-/tmp}/evkit-eval-lang.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM

# The documents: each page rendered as plain text, 100 columns.
for l in $langs; do
	code=${l%%:*} d=${l#*:}
	for c in $cmds; do
		f=$(ls "$d/$c".1* 2>/dev/null | head -n 1)
		[ -n "$f" ] || continue
		# (groff 1.22.4 loops on zh_CN/df.1: a page not rendered in 10 s is left out)
		if ! LC_ALL=C.UTF-8 MANWIDTH=100 timeout 10 man -l "$f" </dev/null >"$work/raw" \
		    2>/dev/null; then
			echo "eval-lang: $f: not rendered, left out" >&2
			continue
		fi
		col -bx <"$work/raw" >"$work/page"
		jq -Rsc --arg id "$code/$c" --arg t "$c(1)" '{id: $id, title: $t, text: .}' "$work/page"
	done
done >"$work/docs.jsonl"

# Queries and judgements.
grep -v '^#' "$top/scripts/eval-lang/queries.tsv" >"$work/q.tsv"
awk -F'\t' '{ printf "%s\t%s/%s\t1\n", $1, $2, $3 }' "$work/q.tsv" >"$work/qrels"
jq -Rc 'split("\t") | {query_id: .[0], query: .[3]}' "$work/q.tsv" >"$work/queries.jsonl"

# evkit's text lane.
ev-ingest --db "$work/kb.db" --quiet "$work/docs.jsonl"
ev-search-text --db "$work/kb.db" -k 100 "$work/queries.jsonl" >"$work/evkit.jsonl" 2>/dev/null

# The tokeniser before: FTS5's porter unicode61, one row a page.
{
	echo "CREATE VIRTUAL TABLE p USING fts5(id UNINDEXED, title, text,"
	echo "  tokenize='porter unicode61 remove_diacritics 2');"
	jq -r '"INSERT INTO p VALUES(" + ([.id, .title, .text] | map("'"'"'" +
	    gsub("'"'"'"; "'"'"''"'"'") + "'"'"'") | join(", ")) + ");"' "$work/docs.jsonl"
	jq -r '.query_id as $q | (.query | [scan("[^\\s'"'"'\"]+")] | map("\"" + . + "\"") |
	    join(" OR ")) as $m | "SELECT '"'"'\($q)'"'"', id, row_number() OVER (ORDER BY" +
	    " bm25(p, 0, 2.5, 1)) FROM p WHERE p MATCH '"'"'\($m | gsub("'"'"'"; "'"'"''"'"'"))'"'"'" +
	    " ORDER BY bm25(p, 0, 2.5, 1) LIMIT 100;"' "$work/queries.jsonl"
} >"$work/fts5.sql"
sqlite3 -separator '	' "$work/fts5.db" <"$work/fts5.sql" |
	jq -Rc 'split("\t") | {query_id: .[0], doc_id: .[1], rank: (.[2] | tonumber)}' >"$work/fts5.jsonl"

# Figures per language: "ndcg mrr recall@10" of a run.
figures() {
	ev-eval --qrels "$work/qrels.$1" --cutoff recall=10 "$2" 2>/dev/null |
		jq -r '"\(.["ndcg@10"]) \(.mrr) \(.["recall@10"])"'
}
printf '%-6s %-7s %8s %8s %8s\n' language run nDCG@10 MRR R@10
for code in en fr de ja zh all; do
	if [ "$code" = all ]; then cp "$work/qrels" "$work/qrels.all"
	else awk -v l="$code" '$2 ~ "^" l "/"' "$work/qrels" >"$work/qrels.$code"; fi
	for run in fts5 evkit; do
		set -- $(figures "$code" "$work/$run.jsonl")
		printf '%-6s %-7s %8.4f %8.4f %8.4f\n' "$code" "$run" "$1" "$2" "$3"
	done
done
# The language found for each page's chunks.
sqlite3 "$work/kb.db" "SELECT printf('languages found: %d of %d chunks right (%s)', sum(substr(doc_id, 1, 2) = language), count(*), (SELECT group_concat(x, ', ') FROM (SELECT doc_id || ' as ' || language AS x FROM chunks WHERE substr(doc_id, 1, 2) != language GROUP BY doc_id, language LIMIT 8))) FROM chunks"
