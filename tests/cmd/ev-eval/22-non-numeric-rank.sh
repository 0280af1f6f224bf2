# rank must be a number.
printf "%s\n" "q1 d1 1" "q1 d2 1" >qrels
echo '{"query_id":"q1","doc_id":"d1","rank":"first"}' | ev-eval --qrels qrels
