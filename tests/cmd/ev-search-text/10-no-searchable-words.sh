# A query of stop words and punctuation yields no hits and a warning, not an
# error; the next query is searched.
printf '%s\n' '"what is the (*) of \"\" ^ -"' '"AND OR NOT"' '""' '"plate"' >q.jsonl
. "$CASEDIR/mkstore"; mkstore kb.db
ev-search-text --db kb.db -k 1 q.jsonl | jq -c '[.query_id, .doc_id]'
echo "status $?"
