# The plan's output.format is --format's key: from --config, then --plan,
# then the flag; a word it does not know is refused with the file's message.
echo '{"query_id":"q","id":"d:0:0","doc_id":"d","rank":1,"score":0.5,"lane":"text","source_uri":"d.txt","snippet":"s"}' >hits.jsonl
printf 'output:\n  format: json\n' >config.yaml
printf 'output:\n  format: jsonl\n' >plan.yaml
ev-pack --config config.yaml hits.jsonl | head -c 2; echo
ev-pack --config config.yaml --plan plan.yaml hits.jsonl | head -c 2; echo
ev-pack --plan plan.yaml --format json hits.jsonl | head -c 2; echo
printf 'output:\n  format: xml\n' >bad.yaml
ev-pack --plan bad.yaml --format json hits.jsonl 2>&1; echo "status $?"
ev-pack --config bad.yaml hits.jsonl 2>&1; echo "status $?"
