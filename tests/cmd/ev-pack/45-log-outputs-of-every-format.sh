# --log records the same outputs (each evidence's id, place and signals, at
# most -k a query) whichever format the packs are written in: the text
# report's and the indented JSON's packs are logged as JSON lines' are.  Each line is a valid
# ToolRun.
V="/usr/bin/python3 $CASEDIR/../../../scripts/validate-evidencepack.py"
ev-fuse "$CASEDIR/../ev-fuse/text.jsonl" "$CASEDIR/../ev-fuse/vector.jsonl" >fused.jsonl
for fmt in jsonl json text; do
	ev-pack --format $fmt -k 2 --log $fmt.log fused.jsonl >/dev/null
	jq -c '.outputs' $fmt.log >$fmt.outputs
	$V --toolrun $fmt.log
done
cmp jsonl.outputs json.outputs && cmp jsonl.outputs text.outputs && echo "the same outputs"
jq -c '.outputs[] | [.query_id, [.evidences[] | [.id, .rank, .signals.rrf_score]]]' text.log
