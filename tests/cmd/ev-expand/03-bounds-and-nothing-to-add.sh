# --from 0 and --per-query 0 add nothing: the hits come out as they went in
# (ranks kept); every query keeps its own hits.
. "$CASEDIR/store.inc"
printf '%s\n' '{"query_id":"a","query":"hives"}' '{"query_id":"b","query":"honey"}' |
	ev-search-text --db kb.db -k 2 --feedback 0 >hits.jsonl
ev-expand --db kb.db --from 0 hits.jsonl | cmp - hits.jsonl && echo "--from 0: unchanged"
ev-expand --db kb.db --per-query 0 hits.jsonl | cmp - hits.jsonl && echo "--per-query 0: unchanged"
ev-expand --db kb.db hits.jsonl | jq -r '[.query_id, .rank, .id] | @tsv'
