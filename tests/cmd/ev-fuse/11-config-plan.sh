# The plan's fusion section is the config; a flag overrides it.
cat >plan.yaml <<EOF
fusion:
  method: weighted
  normalization: minmax
  weights:
    vector: 2
k: 5
EOF
ev-fuse --config plan.yaml --no-explain "$CASEDIR/text.jsonl" "$CASEDIR/vector.jsonl" | jq -c "select(.query_id == \"q1\") | [.id,.score]"
ev-fuse --config plan.yaml --method rrf --no-explain "$CASEDIR/text.jsonl" "$CASEDIR/vector.jsonl" | jq -c "select(.query_id == \"q1\") | [.id,.score]"
