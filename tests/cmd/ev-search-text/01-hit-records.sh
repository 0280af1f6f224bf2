# Query records in, hits out, best first: a bare string line is a query whose
# id is its line number; words are OR-ed and ranked; the fields a packer needs.
exec 2>&1
. "$CASEDIR/mkstore"; mkstore kb.db
printf '%s\n' '{"query_id":"q1","query":"slipstream drag"}' '"flat plate"' |
	ev-search-text --db kb.db | jq -c '[.query_id, .rank, .doc_id, .id, .lane, .signals.fts_rank, .title, .source_uri, .chunk_index, .offset_start, .offset_end, (.content_hash | startswith("sha256:")), (.score == .signals.fts_score)]'
