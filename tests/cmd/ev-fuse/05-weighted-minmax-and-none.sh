# minmax: q1 text (s-2)/10.5: d1 1, d2 .5714, d3 0; vector (s-.3)/.61: d2 1, d6 .4098, d1 0
# none: raw scores added (d1 12.8, d2 8.91, d3 2, d6 .55)
ev-fuse --method weighted --norm minmax --no-explain "$CASEDIR/text.jsonl" "$CASEDIR/vector.jsonl" |
	jq -c "[.query_id,.id,.score]"
ev-fuse --method weighted --norm none --no-explain "$CASEDIR/text.jsonl" "$CASEDIR/vector.jsonl" |
	jq -c "select(.query_id == \"q1\") | [.id,.score]"
