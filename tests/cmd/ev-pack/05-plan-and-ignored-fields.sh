# The plan is kept (with the options in effect); fields evkit does not know
# go to explain.ignored_fields and warnings; a flag overrides the plan.
cat >plan.yaml <<EOF
request_id: req-7
k: 2
fusion:
  method: rrf
global_filters:
  language: en
rerank:
  model: qwen3-reranker
output:
  max_snippet_chars: 10
EOF
L=$CASEDIR/../ev-fuse
ev-fuse "$L/text.jsonl" "$L/vector.jsonl" | ev-pack --plan plan.yaml -k 3 |
	jq -c "[.request_id, .plan, .explain.ignored_fields, .warnings, [.evidences[].snippet]]"
