# A hit without doc_id: exit 2 naming FILE:LINE, nothing on stdout.
printf "%s\n" "q1 d1 1" "q1 d2 1" >qrels
printf '%s\n' '{"query_id":"q1","doc_id":"d1","rank":1}' '{"query_id":"q1","id":"d2:0:0","rank":2}' >run
ev-eval --qrels qrels run
