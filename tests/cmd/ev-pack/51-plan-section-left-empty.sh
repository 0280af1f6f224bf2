# A plan section left empty (its key with only comments under it) is
# absent: no "diversity not supported" in the warnings and the ignored
# fields (it is a known key), nor "unknown key" from ev-fuse; a key evkit
# does not know is still reported when empty.
cat >plan.yaml <<EOF2
k: 2
diversity:
  # mmr_lambda: 0.7
fusion:
output:
custom:
EOF2
L=$CASEDIR/../ev-fuse
ev-fuse --config plan.yaml "$L/text.jsonl" "$L/vector.jsonl" 2>&1 >fused.jsonl
ev-pack --plan plan.yaml fused.jsonl 2>err.txt | jq -c "[.query_id, [.explain.ignored_fields[] | select(test(\"supported\"))], .warnings]"
cat err.txt
