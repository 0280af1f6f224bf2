# Each option comes from the config, else the plan, else its flag, the later
# winning: the config gives k 1, the plan k 2, the flag -k 5; the config's
# min_score stands when neither the plan nor a flag says otherwise, and
# --min-score overrides it.  A config value out of range is refused as a
# flag's is, with config's message.
for i in 1 2 3 4 5; do
	printf '{"query_id":"q","id":"d%s:0:0","doc_id":"d%s","rank":%s,"score":0.%s,"lane":"fused","source_uri":"d%s.txt","snippet":"text number %s"}\n' \
	    $i $i $i $((10 - i)) $i $i
done >hits.jsonl
printf 'k: 1\nmin_score: 0.65\n' >config.yaml
printf 'k: 2\n' >plan.yaml
ev-pack --config config.yaml hits.jsonl | jq -c '[.evidences[].id]'
ev-pack --config config.yaml --plan plan.yaml hits.jsonl | jq -c '[.evidences[].id]'
ev-pack --config config.yaml --plan plan.yaml -k 5 hits.jsonl | jq -c '[.evidences[].id]'
ev-pack -k 5 --config config.yaml --plan plan.yaml --min-score 0.75 hits.jsonl | jq -c '[.evidences[].id]'
printf 'diversity:\n  overlap: 2\n' >bad.yaml
ev-pack --config bad.yaml hits.jsonl 2>&1; echo "status $?"
