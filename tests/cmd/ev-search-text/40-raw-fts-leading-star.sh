# FTS5 reads an expression that begins with '*' ('*reads', '*id') as a
# request for one of its own counters: a row that is no chunk, so the query
# was answered with no hits and exit 0.  It is a bad expression: exit 2,
# naming the line and saying where a prefix query's '*' goes; the hits of
# the queries before it were written.  A '*' after a word is a prefix query.
exec 2>&1
. "$CASEDIR/mkstore"; mkstore kb.db
printf '%s\n' '"plate"' '"*reads"' '"wing"' | ev-search-text --db kb.db --raw-fts >hits.jsonl
echo "status $?"
jq -r '[.query_id, .doc_id] | @tsv' hits.jsonl
echo '"*id"' | ev-search-text --db kb.db --raw-fts
echo "status $?"
echo '"bound*"' | ev-search-text --db kb.db --raw-fts | jq -r .doc_id
