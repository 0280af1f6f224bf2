# --binary: every relevant document has gain 1.  q1 (d1 at 2, d2 at 4):
# DCG = 1/log2(3) + 1/log2(5) = 1.0616, ideal = 1/log2(2) + 1/log2(3) +
# 1/log2(4) = 2.1309 -> 0.4982; other metrics unchanged.
ev-eval --qrels "$CASEDIR/small.qrels" --binary --per-query <"$CASEDIR/small.jsonl"
