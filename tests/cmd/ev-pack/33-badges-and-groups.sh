# Each evidence carries relevance badges made from its evidence: exact match
# (the text lane, with its matched terms), semantic match (vector lane),
# cross-reference (link lane), neighbour (neighbour and timeline lanes),
# structured constraint (structured lane); from its lanes when it has no
# evidence.  --group-by (plan key group_by) gives each evidence a group and
# stats.by_group; the order stays the ranking's, one pack per request.  The
# text report shows the badges the lanes line does not, and the group.
cat >hits.jsonl <<'EOF2'
{"query_id":"q","id":"a:0:0","doc_id":"a","score":0.9,"lane":"fused","source_uri":"a","snippet":"a","evidence":[{"lane":"text","snippet":"a","matched_terms":["swarm","hive"]},{"lane":"vector","score":0.83}]}
{"query_id":"q","id":"b:0:0","doc_id":"b","score":0.8,"lane":"fused","source_uri":"b","snippet":"b","modality":"policy","evidence":[{"lane":"link","from":"a:0:0","hops":1}]}
{"query_id":"q","id":"a:0:1","doc_id":"a","score":0.7,"lane":"fused","source_uri":"a","snippet":"c","evidence":[{"lane":"neighbour","from":"a:0:0","distance":1},{"lane":"timeline","from":"a:0:0","distance":3}]}
{"query_id":"q","id":"t:2","doc_id":"t","score":0.6,"lane":"structured","source_uri":"t","snippet":"d","metadata":{"modality":"spatial"},"evidence":[{"lane":"structured","table":"sites","row":2,"columns":["name"]}]}
{"query_id":"q","id":"v:0:0","doc_id":"v","score":0.5,"lane":"vector","source_uri":"v","snippet":"e"}
{"query_id":"q","id":"r:0:0","doc_id":"r","score":0.4,"lane":"region","source_uri":"r","snippet":"f"}
EOF2
ev-pack hits.jsonl | jq -c '.evidences[] | [.id, .badges]'
for g in lane modality; do
	echo "group_by: $g" >plan.yaml
	ev-pack --plan plan.yaml hits.jsonl | jq -c '[[.evidences[] | [.id, .group]], .stats.by_group, .plan.group_by]'
done
ev-pack --group-by lane -k 2 hits.jsonl | jq -c '.stats.by_group'
echo "the text report names the badges the lanes line does not, and the group:"
COLUMNS=80 ev-pack --format text --group-by modality -k 4 hits.jsonl | sed 1,3d
