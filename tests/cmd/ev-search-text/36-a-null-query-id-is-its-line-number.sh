# A query_id of null is the same as none, as null is for every optional
# field of a record: the query is named by its line number.  ev-search-vec
# and ev-score took it so; ev-search-text, ev-embed, ev-route and
# ev-search-mv refused it as "must be a string or an integer".
exec 2>&1
. "$CASEDIR/mkstore"; mkstore kb.db
ev-embed --db kb.db --train > /dev/null 2>&1
printf '%s\n' '"first"' '{"query_id":null,"query":"wing lift"}' > q.jsonl
ev-search-text --db kb.db -k 1 q.jsonl | jq -c '.query_id'
ev-embed --db kb.db --role query q.jsonl | jq -c '.query_id'
ev-route q.jsonl | jq -c '.query_id'
ev-mv-load --index p.mvi "$CASEDIR/../ev-search-mv/records.jsonl" > /dev/null 2>&1
printf '%s\n' '{"vectors":[[0,0,1]]}' '{"query_id":null,"vectors":[[0,0,1]]}' |
    ev-search-mv --index p.mvi -k 1 | jq -c '.query_id'
