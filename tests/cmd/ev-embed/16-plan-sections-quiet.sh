# --config PLAN.yaml: the plan's embed section is read; its other stages'
# sections (lanes, fusion, ev-pack's keys) pass quietly; unknown keys warn.
exec 2>&1
printf '{"id":"d1","text":"wing flutter at supersonic speed"}\n{"id":"d2","text":"panel flutter of wings"}\n{"id":"d3","text":"boundary layer of a wing"}\n' >docs.jsonl
ev-ingest --db kb.db docs.jsonl >/dev/null
cat >plan.yaml <<YAML
version: "0.1"
lanes:
  text: {k: 100}
  vector: {k: 100}
fusion: {method: weighted, adapt: agreement}
k: 10
diversity: {by_document: 3}
embed:
  dim: 2
bogus: 1
YAML
ev-embed --db kb.db --train --config plan.yaml | jq -c "[.dim, .terms]"
# embed.log_entropy: the terms' global weights are their log-entropy
sqlite3 kb.db "SELECT instr(params, 'log_entropy') > 0 FROM embed_model"
printf 'embed:\n  dim: 2\n  log_entropy: true\n' >le.yaml
ev-embed --db kb.db --train --config le.yaml | jq -c "[.dim, .terms]"
sqlite3 kb.db "SELECT instr(params, '\"global_weight\":\"log_entropy\"') > 0 FROM embed_model"
printf 'embed:\n  log_entropy: 3\n' >bad.yaml
ev-embed --db kb.db --train --config bad.yaml; echo "exit $?"
