# Hand-computed (see small.qrels, small.jsonl): q1 ranks d3 (judged 0), d1 (2),
# d1 again (a second chunk: counted once), d9 (unjudged), d2 (1); d4 (1) is
# missed.  Graded, discount log2(r + 1): DCG@10 = 2/log2(3) + 1/log2(5) =
# 1.6925, ideal = 2/log2(2) + 1/log2(3) + 1/log2(4) = 3.1309 -> 0.5406;
# AP = (1/2 + 2/4)/3 = 0.3333; R@100 = 2/3; RR = 1/2; P@10 = 2/10.
# q2 (four-column qrels line): d5 at 2 -> nDCG 1/log2(3) = 0.6309, AP 0.5,
# RR 0.5.  q3 has no hits
# and scores 0; q9 is not judged and is left out.  Means over 3 queries.
ev-eval --qrels "$CASEDIR/small.qrels" --per-query "$CASEDIR/small.jsonl"
