# Every fused hit explains itself: each lane's rank, raw score, normalised
# score, weight, contribution and the formula; a lane that missed it says so.
ev-fuse "$CASEDIR/text.jsonl" "$CASEDIR/vector.jsonl" | jq -c "select(.query_id == \"q1\") | .explain"
