# A query_id that is neither a string nor an integer is bad input, with the
# one message every command gives (ev-search-mv said "a whole number" where
# the others say "an integer").
exec 2>&1
ev-mv-load --index pages.mvi "$CASEDIR/records.jsonl" > /dev/null 2>&1
ev-ingest --db kb.db --quiet "$TESTDATA/ingest/docs.jsonl"
for id in 1.5 true '[1]' '{}'; do
	echo "{\"query_id\":$id,\"vectors\":[[0,0,1]]}" | ev-search-mv --index pages.mvi
	echo "{\"query_id\":$id,\"query\":\"words\"}" | ev-search-text --db kb.db
	echo "{\"query_id\":$id,\"query\":\"words\"}" | ev-route
	echo "{\"query_id\":$id,\"id\":\"a\",\"score\":1}" | ev-fuse
done
