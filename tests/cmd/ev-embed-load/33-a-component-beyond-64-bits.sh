# A vector component written as an integer beyond 64 bits is valid JSON that
# Jansson cannot hold: it is bad input named by file and line, whose message
# says how to write it as a real number (it said "too big integer near ...",
# at the number's end); written so, it is read as one (and 1e20 is beyond a
# float's precision, not its range).  The same for a query's vector.
exec 2>&1
. "$CASEDIR/mkstore"; mkstore kb.db 6
printf '%s\n' '{"id":"d1:s1:0","vector":[1,0,0,0],"model":"m1"}' \
    '{"id":"d1:s1:1","vector":[0,99999999999999999999,0,0],"model":"m1"}' > v.jsonl
ev-embed-load --db kb.db --index kb.faiss v.jsonl; echo "exit $?"
printf '%s\n' '{"id":"d1:s1:0","vector":[1,0,0,0],"model":"m1"}' \
    '{"id":"d1:s1:1","vector":[0,99999999999999999999.0,0,0],"model":"m1"}' > v.jsonl
ev-embed-load --db kb.db --index kb.faiss v.jsonl > /dev/null 2>&1; echo "exit $?"
echo '{"query_id":"q","vector":[0,-123456789012345678901234567890123456789012345,0,0],"model":"m1"}' |
    ev-search-vec --db kb.db --index kb.faiss; echo "exit $?"
echo '{"query_id":"q","vector":[0,1e20,0,0],"model":"m1"}' |
    ev-search-vec --db kb.db --index kb.faiss -k 1 | jq -c '[.id, .rank]'
