# A bad FTS5 expression is bad input: exit 2, FTS5's message and the line;
# the hits of the queries before it were written.
exec 2>&1
. "$CASEDIR/mkstore"; mkstore kb.db
printf '%s\n' '"title:wing"' '"wing AND ("' '"plate"' | ev-search-text --db kb.db --raw-fts >hits.jsonl
echo "status $?"
jq -r .doc_id hits.jsonl
echo '"nosuch:wing"' | ev-search-text --db kb.db --raw-fts
echo "status $?"
