# A record keeps every field it was loaded with and gives them back with its
# hits, but the query's own fields are the query's: a record loaded with a
# "query_id" or a "query" of its own wrote them over the query's, so that
# its hit went to another query (ev-fuse then ranked it there, alone).  The
# query's fields win; the record's others (doc_id, page, note) still come.
export EV_FIXED_TIME=2026-11-29T02:10:33.123Z	# the lanes' stamp (retrieved_at), pinned
printf '%s\n' '{"id":"a","vectors":[[1,0,0]],"model":"m","doc_id":"d1","page":1,"query_id":"other","query":"not this","note":"kept"}' \
	'{"id":"b","vectors":[[0,1,0]],"model":"m","doc_id":"d2","page":2}' >recs.jsonl
ev-mv-load --index pages.mvi recs.jsonl 2>/dev/null
printf '%s\n' '{"query_id":"q1","query":"hives","vectors":[[1,1,0]]}' '{"vectors":[[1,0,0]]}' >q.jsonl
ev-search-mv --index pages.mvi -k 2 q.jsonl | jq -c '[.query_id, .query, .rank, .id, .doc_id, .page, .note]'
