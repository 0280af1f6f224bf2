# weighted, normalisation max (seed 003: score / max(batch max, 1)), seed 004 weights:
# q1 text max 12.5: d1 1, d2 .64, d3 .16; vector max(.91,1) = 1: d2 .91, d6 .55, d1 .3
# d2 = .3*.64 + .7*.91 = .829, d1 = .3 + .21 = .51, d6 = .385, d3 = .048
ev-fuse --method weighted --weight vector=0.7 --weight text=0.3 --no-explain \
	"$CASEDIR/text.jsonl" "$CASEDIR/vector.jsonl" | jq -c "[.query_id,.id,.score,.signals.fused_score]"
