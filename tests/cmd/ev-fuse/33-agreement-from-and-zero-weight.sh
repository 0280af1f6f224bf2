# --agreement-from LANE=FROM: lane LANE's adaptive weight follows lane FROM's
# agreement with the anchor.  The feedback lane's first documents are the text
# lane's own (agreement 1 by itself), but the plain vector lane shares 1 of
# its first 2 with text: the feedback lane weighs 1 x 0.5.  A lane weighing 0
# (vector) adds no candidate of its own (d), yet a candidate it found keeps
# its signals.
printf '%s\n' '{"query_id":"q","id":"a","doc_id":"a","rank":1,"score":10,"lane":"text"}' \
	'{"query_id":"q","id":"b","doc_id":"b","rank":2,"score":6,"lane":"text"}' \
	'{"query_id":"q","id":"c","doc_id":"c","rank":3,"score":2,"lane":"text"}' \
	'{"query_id":"q","id":"b","doc_id":"b","rank":1,"score":0.9,"lane":"vector"}' \
	'{"query_id":"q","id":"d","doc_id":"d","rank":2,"score":0.5,"lane":"vector"}' \
	'{"query_id":"q","id":"a","doc_id":"a","rank":1,"score":0.8,"lane":"vector_feedback"}' \
	'{"query_id":"q","id":"b","doc_id":"b","rank":2,"score":0.6,"lane":"vector_feedback"}' \
	'{"query_id":"q","id":"e","doc_id":"e","rank":3,"score":0.4,"lane":"vector_feedback"}' >hits.jsonl
ev-fuse --method weighted --norm minmax --adapt agreement --agreement-depth 2 --agreement-full 1 \
	--weight vector=0 --agreement-from vector_feedback=vector hits.jsonl |
	jq -c '[.id, .rank, .score, .signals.vector_rank]'
ev-fuse --method weighted --norm minmax --adapt agreement --agreement-depth 2 --agreement-full 1 \
	--weight vector=0 --agreement-from vector_feedback=vector hits.jsonl |
	jq -c 'select(.rank == 1) | .explain.adapt.lanes[] | select(.lane == "vector_feedback")'
# Without it, the feedback lane's own agreement: the full weight.
ev-fuse --method weighted --norm minmax --adapt agreement --agreement-depth 2 --agreement-full 1 \
	--weight vector=0 hits.jsonl | jq -c '[.id, .score]'
# The plan's fusion.agreement_from says the same.
cat >plan.yaml <<YAML
fusion:
  method: weighted
  normalization: minmax
  adapt: agreement
  agreement_depth: 2
  agreement_full: 1
  weights: {vector: 0}
  agreement_from:
    vector_feedback: vector
YAML
ev-fuse --config plan.yaml hits.jsonl | jq -c '[.id, .score]'
# Bad values are refused.
ev-fuse --agreement-from vector_feedback hits.jsonl; echo "exit $?"
ev-fuse --agreement-from 'a=b c' hits.jsonl; echo "exit $?"
printf 'fusion:\n  agreement_from: vector\n' >bad.yaml
ev-fuse --config bad.yaml hits.jsonl; echo "exit $?"
# The feedback lane missing from the input: the vector lane adds nothing, and
# a warning says what to do.
grep -v vector_feedback hits.jsonl | ev-fuse --config plan.yaml | jq -c '[.id, .score]'
