# -k 2: q1 nDCG@2 = 2 / (2 + 1) = 0.6667, q2 = 1, q3 = 0 -> 0.5556; P@2 = (1/2 +
# 1/2 + 0)/3.  --cutoff recall=1: neither first document is relevant -> 0.
ev-eval --qrels "$CASEDIR/small.qrels" -k 2 --cutoff recall=1 "$CASEDIR/small.jsonl"
