# --binary: every relevant document has gain 1.  q1: DCG = 1 + 1/log2(4) = 1.5,
# ideal = 1 + 1 + 1/log2(3) = 2.6309 -> 0.5701; other metrics unchanged.
ev-eval --qrels "$CASEDIR/small.qrels" --binary --per-query <"$CASEDIR/small.jsonl"
