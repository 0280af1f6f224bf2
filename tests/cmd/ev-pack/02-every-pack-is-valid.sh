# Every pack of every format and option validates against
# schema/evidencepack-0.1.schema.json.
L=$CASEDIR/../ev-fuse
V="/usr/bin/python3 $CASEDIR/../../../scripts/validate-evidencepack.py"
ev-fuse "$L/text.jsonl" "$L/vector.jsonl" >fused.jsonl
ev-pack fused.jsonl | $V
ev-pack --format json fused.jsonl | $V
ev-pack --plan "$SAMPLES/plan.yaml" fused.jsonl | $V
ev-pack -k 1 --min-score 0.02 --by-document 1 --max-snippet-chars 5 fused.jsonl | $V
ev-fuse --method weighted --group doc "$L/text.jsonl" "$L/vector.jsonl" | ev-pack | $V
ev-pack "$L/text.jsonl" | $V
ev-pack </dev/null | $V
