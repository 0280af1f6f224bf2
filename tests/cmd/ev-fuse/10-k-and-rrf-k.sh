# -k cuts each query's list; --rrf-k 1: q1 d2 = 1/3 + 1/2, d1 = 1/2 + 1/4
ev-fuse -k 2 --rrf-k 1 --no-explain "$CASEDIR/text.jsonl" "$CASEDIR/vector.jsonl" | jq -c "[.query_id,.id,.rank,.score]"
