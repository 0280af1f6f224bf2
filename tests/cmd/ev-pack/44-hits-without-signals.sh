# Every pack is valid, whatever well-formed hits it was made of: a fused hit
# that came without signals (made by hand, or by another fuser), and a hit
# that names no lane, get fused_score, the score each came with, and
# explain.ignored_fields says why rrf_score is not there; a lane evkit does
# not know names its own score (LANE_score), which the schema takes.  A
# hit whose lanes nothing says is associative, as a lane evkit does not know.
V="/usr/bin/python3 $CASEDIR/../../../scripts/validate-evidencepack.py"
printf '%s\n' \
 '{"query_id":"q","query":"x","id":"a","doc_id":"a","rank":1,"score":4,"lane":"fused","snippet":"both","evidence":[{"lane":"structured"},{"lane":"text"}]}' \
 '{"query_id":"q","query":"x","id":"b","doc_id":"b","rank":2,"score":3,"snippet":"no lane"}' \
 '{"query_id":"q","query":"x","id":"c","doc_id":"c","rank":3,"score":2,"lane":"fused","signals":{"rerank_score":0.5},"snippet":"reranked"}' \
 '{"query_id":"q","query":"x","id":"d","doc_id":"d","rank":4,"score":1,"lane":"graph","snippet":"a lane of its own"}' >hits.jsonl
ev-pack hits.jsonl >pack.json
$V pack.json
jq -c '.evidences[] | [.id, .provenance.mode, .signals]' pack.json
jq -r '.explain.ignored_fields[] | select(test("rrf|fts_score"))' pack.json
echo "hits of ev-fuse keep their rrf_score, and say nothing of fused_score:"
ev-fuse "$CASEDIR/../ev-fuse/text.jsonl" "$CASEDIR/../ev-fuse/vector.jsonl" | ev-pack -k 2 >fused.json
$V fused.json
jq -c '[.evidences[].signals | has("rrf_score", "fused_score")], [.explain.ignored_fields[] | select(test("rrf"))]' fused.json
echo "the text report shows the score, a lane of its own its own:"
COLUMNS=80 ev-pack --format text hits.jsonl | grep -E 'score|associative'
