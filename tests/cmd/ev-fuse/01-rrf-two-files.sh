# RRF of two lane files read in step, k = 60 (hand-computed):
# q1: d2 = 1/(60+2) + 1/(60+1) = 0.0325, d1 = 1/61 + 1/63 = 0.0323,
#     d6 = 1/62 (vector only: the text lane contributes 0), d3 = 1/63.
# q2: d4 = 1/61 + 1/62, d5:0:0 = 1/61, d5:0:1 = 1/62.
ev-fuse --no-explain "$CASEDIR/text.jsonl" "$CASEDIR/vector.jsonl" | jq -c "[.query_id,.id,.rank,.score,.lane]"
