# combsum (minmax): q1 d2 .5714 + 1 = 1.5714, d1 1 + 0, d6 .4098, d3 0
# combmnz: the same times the lanes that found it: d2 3.1429, d1 2, d6 .4098, d3 0
ev-fuse --method combsum --no-explain "$CASEDIR/text.jsonl" "$CASEDIR/vector.jsonl" | jq -c "[.query_id,.id,.score]"
ev-fuse --method combmnz "$CASEDIR/text.jsonl" "$CASEDIR/vector.jsonl" | jq -c "[.query_id,.id,.score,.explain.lanes_found]"
