# A qrels line of the wrong shape: exit 2 naming the qrels FILE:LINE.
printf '%s\n' 'q1 d1 1' 'q1 d2 1' 'q1 d3' >qrels
echo '{"query_id":"q1","doc_id":"d1","rank":1}' | ev-eval --qrels qrels
