# --adapt agreement: per query, a lane other than the anchor (text) weighs its
# weight times min(1, agreement / full), agreement being the share of its first
# N documents among the anchor's first N.  q1: 2 of vector's first 3 are in
# text's first 3 (0.667 < 0.9: weight 0.741); q2: the lanes found other chunks
# of the same 2 documents, which agree (1: full weight).  Scores still fall as
# ranks rise.
ev-fuse --method weighted --norm minmax --adapt agreement --agreement-depth 3 --agreement-full 0.9 \
	"$CASEDIR/text.jsonl" "$CASEDIR/vector.jsonl" |
	jq -c '[.query_id, .id, .rank, .score, .explain.weights.vector, (.explain.lanes[] | select(.lane == "vector") | .weight)]'
ev-fuse --method weighted --norm minmax --adapt agreement --agreement-depth 3 --agreement-full 0.9 \
	"$CASEDIR/text.jsonl" "$CASEDIR/vector.jsonl" | jq -c 'select(.rank == 1) | .explain.adapt'
# The default full agreement is 0.6: q1's 0.667 earns the full weight.
ev-fuse --method weighted --norm minmax --adapt agreement --agreement-depth 3 \
	"$CASEDIR/text.jsonl" "$CASEDIR/vector.jsonl" | jq -c 'select(.rank == 1 and .query_id == "q1") | .explain.adapt.lanes[0].why'
# A lane sharing nothing with the anchor counts nothing: only the text lane ranks.
printf '%s\n' '{"query_id":"q","id":"a","rank":1,"score":3,"lane":"text"}' \
	'{"query_id":"q","id":"b","rank":2,"score":1,"lane":"text"}' \
	'{"query_id":"q","id":"c","rank":1,"score":0.9,"lane":"vector"}' \
	'{"query_id":"q","id":"b","rank":2,"score":0.1,"lane":"vector"}' >none.jsonl
ev-fuse --method weighted --norm minmax --adapt agreement --agreement-depth 1 none.jsonl |
	jq -c '[.id, .score, .explain.weights]'
# Without the adaptation the vector lane's c would come first.
ev-fuse --method weighted --norm minmax --agreement-depth 1 none.jsonl | jq -c '[.id, .score]'
# An anchor lane absent from the query: the weights as given, and why.
ev-fuse --method weighted --norm minmax --adapt agreement --anchor nosuch none.jsonl |
	jq -c 'select(.rank == 1) | .explain.adapt'
# The plan's fusion section sets the same, and a flag overrides it.
cat >plan.yaml <<YAML
fusion:
  method: weighted
  normalization: minmax
  adapt: agreement
  anchor: text
  agreement_depth: 1
  agreement_full: 1
YAML
ev-fuse --config plan.yaml none.jsonl | jq -c '[.id, .score]'
ev-fuse --config plan.yaml --adapt none none.jsonl | jq -c '[.id, .score]'
# Bad values are refused.
ev-fuse --adapt sometimes none.jsonl; echo "exit $?"
ev-fuse --agreement-full 0 none.jsonl; echo "exit $?"
ev-fuse --agreement-depth 0 none.jsonl; echo "exit $?"
printf 'fusion:\n  adapt: often\n' >bad.yaml
ev-fuse --config bad.yaml none.jsonl; echo "exit $?"
