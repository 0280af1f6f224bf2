# Weights from --config (weights.*) and --weight (which overrides), then
# normalised by their sum.  f = 0.5 (moon unsupported, flow supported),
# c = 1, r = 0 for this item.  config 1/1/2 -> (0.5 + 1 + 2) / 4 = 0.875;
# --weight coverage=0 -> (0.5 + 2) / 3 = 0.8333; faithfulness alone -> 0.5.
# An unknown key is warned about.
cat >score.yaml <<'EOF2'
weights:
  faithfulness: 1
  coverage: 1
  redundancy: 2
colour: blue
EOF2
r='{"query_id":"w","query":"flow","answer":"The moon flows.","citations":["Turbulent flow."]}'
echo "$r" | ev-score --config score.yaml 2>err | jq -c '{overall}'
cat err
echo "$r" | ev-score --config score.yaml --weight coverage=0 2>/dev/null | jq -c '{overall}'
echo "$r" | ev-score --weight faithfulness=1 --weight coverage=0 --weight redundancy=0 | jq -c '{overall}'
