# One whole hit record: signals, snippet with the matched words marked,
# evidence with matched_terms, the chunk's fields, the document's metadata,
# and the query's unknown fields passed through ("vector" and "filters" not).
export EV_FIXED_TIME=2026-11-29T02:10:33.123Z	# the lanes' stamp (retrieved_at), pinned
exec 2>&1
. "$CASEDIR/mkstore"; mkstore kb.db
echo '{"query_id":7,"query":"propeller thrust","user":{"keep":true},"vector":[1,2]}' |
	ev-search-text --db kb.db -k 1 | jq -c 'del(.score, .signals.fts_score, .content_hash)'
