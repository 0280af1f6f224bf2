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
# requests of several queries, MMR, groups, badges and what other stages pass
{ sed 's/"query_id":"q[12]"/"query_id":"q1","request_id":"R","query_index":0/' fused.jsonl |
    head -3; sed 's/"query_id":"q2"/"query_id":"q2","request_id":"R","query_index":1/' fused.jsonl |
    grep '"q2"' | sed 's/"query":"[^"]*"/"query":"rewrite","rerank":{"enabled":true,"model":"m","top_n":5},"warnings":["w"],"routing":{"by":"default"}/'; } >request.jsonl
ev-pack --mmr-lambda 0.5 --group-by lane request.jsonl | $V
ev-pack --group-by modality --format json request.jsonl | $V
