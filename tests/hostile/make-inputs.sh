#!/bin/sh
# Write the hostile inputs into DIR: the small ones kept in tests/hostile/inputs/
# are copied, the big ones (100,000 nested brackets, 20 MB lines, 200,000
# keys) are generated here so that the repository stays small.
#
#   tests/hostile/make-inputs.sh DIR
#
# Layout of DIR (the runner's contract, see run.sh):
#   common/*.jsonl   bad for every command that reads JSON Lines
#   config/*.yaml    bad for every command's --config
#   CMD/*            bad (or, named ok-* / any-*, valid) for one kind of input
# Inputs may hold placeholders (@CHUNK@, @DOC@, @MODEL@, @VEC@, ...) that
# run.sh replaces with values from its fixture store.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
dir=${1:?usage: make-inputs.sh DIR}
mkdir -p "$dir"
cp -R "$here/inputs/." "$dir/"

# n copies of a string, without a trailing newline
rep() { head -c "$2" /dev/zero | tr '\0' "$1"; }

mb20=$((20 * 1024 * 1024))
c=$dir/common
rep '[' 100000 >"$c/nested-array-100k.jsonl"
{ i=0; while [ $i -lt 1000 ]; do printf '{"a":{"a":{"a":{"a":{"a":{"a":{"a":{"a":{"a":{"a":'; \
	printf '{"a":{"a":{"a":{"a":{"a":{"a":{"a":{"a":{"a":{"a":'; \
	printf '{"a":{"a":{"a":{"a":{"a":{"a":{"a":{"a":{"a":{"a":'; \
	printf '{"a":{"a":{"a":{"a":{"a":{"a":{"a":{"a":{"a":{"a":'; \
	printf '{"a":{"a":{"a":{"a":{"a":{"a":{"a":{"a":{"a":{"a":'; \
	printf '{"a":{"a":{"a":{"a":{"a":{"a":{"a":{"a":{"a":{"a":'; \
	printf '{"a":{"a":{"a":{"a":{"a":{"a":{"a":{"a":{"a":{"a":'; \
	printf '{"a":{"a":{"a":{"a":{"a":{"a":{"a":{"a":{"a":{"a":'; \
	printf '{"a":{"a":{"a":{"a":{"a":{"a":{"a":{"a":{"a":{"a":'; \
	printf '{"a":{"a":{"a":{"a":{"a":{"a":{"a":{"a":{"a":{"a":'; i=$((i + 1)); done; } \
	>"$c/nested-object-100k.jsonl"
{ rep '[' 100000; rep ']' 100000; echo; } >"$c/nested-closed-100k.jsonl"
{ printf '{"id":"big","query_id":"big","query":"'; rep a $mb20; } >"$c/hugeline-unterminated.jsonl"
{ printf '{"id":"big","query_id":"big","query":"x","text":"'; rep a $mb20; printf '\1"}\n'; } \
	>"$c/hugeline-control-char.jsonl"
# 200,000 keys, none of them a field any command needs
awk 'BEGIN { printf "{"; for (i = 0; i < 200000; i++) printf "%s\"k%d\":%d", i ? "," : "", i, i; print "}" }' \
	>"$c/many-keys.jsonl"

# valid 20 MB lines, per kind of input: the command must answer or refuse
# cleanly within the time and memory limits
mkdir -p "$dir/ev-search-text" "$dir/ev-ingest" "$dir/ev-embed-query" "$dir/hits"
{ printf '{"query_id":"huge","query":"'; awk 'BEGIN { for (i = 0; i < 2000000; i++) printf "wing%d ", i % 977 }'; \
	printf '"}\n'; } >"$dir/ev-embed-query/any-huge-query.jsonl"
# the text lane gets 200,000 terms (2 MB): 20 MB takes it 20 s
{ printf '{"query_id":"big","query":"'; awk 'BEGIN { for (i = 0; i < 200000; i++) printf "wing%d ", i % 977 }'; \
	printf '"}\n'; } >"$dir/ev-search-text/any-big-query.jsonl"
{ printf '{"query_id":"long","query":"'; rep w 100000; printf '"}\n'; } >"$dir/ev-search-text/any-long-term.jsonl"
{ printf '{"id":"huge-doc","text":"'; awk 'BEGIN { for (i = 0; i < 2000000; i++) printf "lift%d%s", i % 977, i % 50 == 49 ? "\\n\\n" : " " }'; \
	printf '"}\n'; } >"$dir/ev-ingest/any-huge-document.jsonl"
{ printf '{"id":"long-word","text":"'; rep w $mb20; printf '"}\n'; } >"$dir/ev-ingest/any-huge-word.jsonl"
{ printf '{"query_id":"1","query":"wing","id":"c","doc_id":"d","rank":1,"score":1,"lane":"text","snippet":"'; \
	rep s $mb20; printf '"}\n'; } >"$dir/hits/any-huge-snippet.jsonl"

# ev-pack: one request of 20,000 queries, each with a hit and a warning of
# its own, and all finding one chunk (its provenances, the warnings, kept once)
awk 'BEGIN { for (i = 0; i < 20000; i++) {
	printf "{\"query_id\":\"q%d\",\"request_id\":\"R\",\"query_index\":%d,\"id\":\"c%d\",\"score\":%d,\"warnings\":[\"w%d\"]}\n", i, i, i, i, i
	printf "{\"query_id\":\"q%d\",\"request_id\":\"R\",\"id\":\"shared\",\"score\":%d,\"rerank\":{\"enabled\":true}}\n", i, i } }' \
	>"$dir/ev-pack/ok-request-20000-queries.jsonl"

c=$dir/config
{ printf 'k: '; rep '[' 100000; echo; } >"$c/nested-flow-100k.yaml"
awk 'BEGIN { for (i = 0; i < 5000; i++) { printf "%*sk%d:\n", i, "", i } print "" }' >"$c/nested-block-5k.yaml"
{ printf 'k: "'; rep y $mb20; printf '"\n'; } >"$c/any-hugeline.yaml"

# ev-extract: 100,000 nested elements, and a 20 MB text node
mkdir -p "$dir/ev-extract"
{ printf '<html><body>'; awk 'BEGIN { for (i = 0; i < 100000; i++) printf "<div>" }'; printf 'deep'; } \
	>"$dir/ev-extract/nested-100k.html"
{ printf '<p>'; rep w $mb20; printf '</p>'; } >"$dir/ev-extract/huge-word.html"
