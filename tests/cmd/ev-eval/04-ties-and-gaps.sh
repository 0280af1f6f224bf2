# Order within a query: rank, then score (higher first), then arrival; gaps in
# the ranks do not count.  Query t: r ties x at rank 1 with the higher score ->
# first (AP = RR = 1: one relevant document each).  u: a full tie -> arrival order, x first (RR 0.5).  v: ranks 3
# and 10 are positions 1 and 2; a hit without rank comes last (RR 0.5).  w: no
# ranks, order by score (RR 1).  Mean 3/4.  The TREC file shows the order.
printf "%s\n" "t r 1" "u r 1" "v r 1" "w r 1" >qrels
cat >run <<EOF
{"query_id":"t","doc_id":"x","rank":1,"score":1}
{"query_id":"t","doc_id":"r","rank":1,"score":2}
{"query_id":"u","doc_id":"x","rank":1,"score":5}
{"query_id":"u","doc_id":"r","rank":1,"score":5}
{"query_id":"v","doc_id":"y","score":100}
{"query_id":"v","doc_id":"r","rank":10,"score":1}
{"query_id":"v","doc_id":"x","rank":3,"score":0.5}
{"query_id":"w","doc_id":"y","score":1}
{"query_id":"w","doc_id":"r","score":2}
EOF
ev-eval --qrels qrels --per-query --trec run.trec run | sed "s/,\"recall@100.*//"
cat run.trec
