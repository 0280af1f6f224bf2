# --config PLAN.yaml: a retrieval plan's lanes.vector section sets the options;
# the plan's top-level k and min_score (ev-pack's) and its other stages'
# sections are not this stage's and pass quietly; unknown keys are warned about.
exec 2>&1
. "$CASEDIR/../ev-embed-load/mkstore"; mkstore kb.db 6
ev-embed-load --db kb.db --index kb.faiss "$CASEDIR/../ev-embed-load/vectors.jsonl" 2>/dev/null
cat >plan.yaml <<YAML
version: "0.1"
lanes:
  text:
    k: 5
  vector:
    k: 2
    snippet: false
fusion:
  method: weighted
  adapt: agreement
k: 1
min_score: 0.99
diversity:
  by_document: 3
YAML
echo "{\"vector\":[0,0,1,0]}" | ev-search-vec --db kb.db --index kb.faiss --config plan.yaml | jq -c "[.id, .score, .snippet]"
# a flag overrides the plan
echo "{\"vector\":[0,0,1,0]}" | ev-search-vec --db kb.db --index kb.faiss --config plan.yaml -k 3 | jq -c "[.id, .score]"
# lanes.vector's min_score is this lane's
printf 'lanes:\n  vector:\n    min_score: 0.5\n    bogus: 1\n' >p2.yaml
echo "{\"vector\":[0,0,1,0]}" | ev-search-vec --db kb.db --index kb.faiss --config p2.yaml | jq -c "[.id, .score]"
printf 'lanes:\n  vector:\n    k: 0\n' >p3.yaml
echo "{\"vector\":[0,0,1,0]}" | ev-search-vec --db kb.db --index kb.faiss --config p3.yaml; echo "exit $?"
