# Every flag is a config key too: summary (true, false, text or json),
# redundancy (a word), skip_invalid; a weights key that is not an axis is
# warned about and ignored, as an unknown key is; a bad summary is refused
# with the config's message.
r='{"query_id":"a","query":"flow","answer":"Flow.","citations":["flow","flow"]}'
cat >c.yaml <<'EOF2'
summary: json
redundancy: max
skip_invalid: true
weights:
  colour: 1
EOF2
printf '%s\nnot json\n' "$r" | ev-score --config c.yaml 2>err | jq -c '.summary.items // .details.redundancy_max'
cat err
printf 'summary: false\n' >off.yaml
echo "$r" | ev-score --config off.yaml --summary=json | jq -c '.summary.items // "record"'
printf 'summary: maybe\n' >bad.yaml
echo "$r" | ev-score --config bad.yaml 2>&1; echo "status $?"
