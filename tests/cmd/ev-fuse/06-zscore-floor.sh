# zscore: a lane that missed a candidate contributes its lowest z-score (its floor).
# q2 has two hits a lane, so z = +1 / -1: d4 = 1 + -1 = 0, d5:0:0 = 1 + text floor -1 = 0,
# d5:0:1 = -1 + vector floor -1 = -2; d4 and d5:0:0 tie and d4 wins by id.
ev-fuse --method weighted --norm zscore "$CASEDIR/text.jsonl" "$CASEDIR/vector.jsonl" |
	jq -c "select(.query_id == \"q2\") | [.id,.score,[.explain.lanes[]|[.lane,.found,.contribution,.formula]]]"
