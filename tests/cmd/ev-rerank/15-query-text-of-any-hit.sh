# The query's words come from the first hit that gives a query text, not
# only from the first hit: here the first hit has none (as a hand-made or
# vector-only hit may), and the features still see "varroa mites".  A query
# none of whose hits has a text is ranked by its lanes' features alone,
# and standard error says how many such queries there were.
. "$CASEDIR/store.inc"
printf '%s\n' '{"query_id":1,"id":"honey:_top:0","rank":1,"score":2}' \
	'{"query_id":1,"query":"varroa mites","id":"titled:_top:0","rank":2,"score":1}' \
	'{"query_id":2,"id":"apart:_top:0","rank":1,"score":1}' >hits.jsonl
ev-rerank --db kb.db hits.jsonl | jq -c '[.query_id, .id, .rank, .explain.rerank.features.coverage]'
# A --command is sent the same text for every candidate of the query (it
# got null for the hit without one).
ev-rerank --db kb.db --command 'while read -r l; do printf "%s\n" "$l" >>sent.jsonl; echo 1; done' \
	hits.jsonl >/dev/null
jq -c '[.query_id, .id, .query]' sent.jsonl
