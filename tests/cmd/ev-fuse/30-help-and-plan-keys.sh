# --help comes from the option table: each option once, with its range and
# default, the choices as their words.  A plan's other stages' keys
# (routing, lanes.vector.k, ev-pack's k) pass quietly; a key no stage reads,
# in the fusion section or another stage's (lanes.vector.bogus), is warned
# about; a word not among a choice's exits 2.
exec 2>&1
ev-fuse --help
cat >plan.yaml <<YAML
version: "0.1"
routing:
  default: [text]
lanes:
  vector:
    k: 5
    bogus: 1
fusion:
  method: combsum
  normalisation: minmax
k: 3
YAML
ev-fuse --config plan.yaml --no-explain "$CASEDIR/text.jsonl" "$CASEDIR/vector.jsonl" | jq -c 'select(.query_id == "q1") | .signals.fused_score != null'
printf 'fusion:\n  group: section\n' >bad.yaml
ev-fuse --config bad.yaml </dev/null; echo "exit $?"
