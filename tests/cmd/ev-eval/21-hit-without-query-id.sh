# A hit without query_id, read from stdin.
printf "%s\n" "q1 d1 1" "q1 d2 1" >qrels
echo '{"doc_id":"d1","rank":1}' | ev-eval --qrels qrels
