# A query of 1 MB (a document pasted as a question) is held once in its
# pack, in "query", not again in each evidence's provenance: the pack is
# about the query's size, not a multiple of it.  A short query is still
# repeated in each provenance's query_text.
export EV_UUID_SEED=7
. "$CASEDIR/../ev-hybrid/store.inc"
i=0
words=
while [ $i -lt 1000 ]; do words="$words flutter"; i=$((i + 1)); done
long=$(printf '%s' "$words" | awk '{ for (i = 0; i < 105; i++) printf "%s", $0 }')
printf '{"query_id":"long","query":"wing%s"}\n{"query_id":"short","query":"wing flutter"}\n' "$long" >q.jsonl
echo "query bytes: $(jq -r 'select(.query_id == "long") | .query | length' q.jsonl)"
ev-search-text --db db -k 5 q.jsonl >hits.jsonl
ev-pack -k 5 hits.jsonl >packs.jsonl
jq -r '[.query_id, (.evidences | length), ([.evidences[].provenance | has("query_text")] | unique | tostring),
    ([paths(type == "string" and length > 100000)] | length)] | @tsv' packs.jsonl
[ "$(jq -c 'select(.query_id == "long")' packs.jsonl | wc -c)" -lt 1100000 ] && echo "the long query's pack is under 1.1 MB"
