# The whole fused record of the best q1 hit: chunk fields passed through,
# signals of both lanes plus rrf_score, evidence vector first then text,
# the snippet of the lane that contributed most (vector: rank 1).
ev-fuse "$CASEDIR/text.jsonl" "$CASEDIR/vector.jsonl" | head -1
