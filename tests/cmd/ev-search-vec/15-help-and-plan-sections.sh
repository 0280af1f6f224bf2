# --help comes from the option table, with ranges and defaults.  In a plan,
# the routing section is another stage's and passes quietly; a lane no stage
# reads ("sql"), a top-level ef_search (ev-search-vec reads it only from
# lanes.vector in a plan) and a key lanes.vector does not have are warned
# about.
exec 2>&1
ev-search-vec --help
. "$CASEDIR/../ev-embed-load/mkstore"; mkstore kb.db 6
ev-embed-load --db kb.db --index kb.faiss "$CASEDIR/../ev-embed-load/vectors.jsonl" 2>/dev/null
cat >plan.yaml <<YAML
routing:
  default: [text, vector]
lanes:
  sql:
    k: 3
  vector:
    k: 1
    nprobes: 4
ef_search: 10
YAML
echo "{\"vector\":[0,0,1,0]}" | ev-search-vec --db kb.db --index kb.faiss --config plan.yaml | jq -c "[.id, .score]"
