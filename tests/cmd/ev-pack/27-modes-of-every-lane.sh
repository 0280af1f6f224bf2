# provenance.mode names how an evidence was found: exact (the text lane),
# semantic (vector), relational (the structured lane, ev-search-sql),
# associative (expansion: neighbour, link, timeline) and hybrid (several);
# stats.by_mode counts relational and associative candidates when there are.
# The pack is valid (a lane of expansion alone names its own score signal).
printf '%s\n' \
 '{"query_id":"q","query":"x","id":"a","doc_id":"a","rank":1,"score":4,"lane":"structured","snippet":"row a"}' \
 '{"query_id":"q","query":"x","id":"b","doc_id":"b","rank":2,"score":3,"lane":"neighbour","snippet":"next to a"}' \
 '{"query_id":"q","query":"x","id":"c","doc_id":"c","rank":3,"score":2,"lane":"text","snippet":"word"}' \
 '{"query_id":"q","query":"x","id":"d","doc_id":"d","rank":4,"score":1,"lane":"fused","snippet":"both","signals":{"rrf_score":0.03},
   "evidence":[{"lane":"structured"},{"lane":"text"}]}' | tr -d '\n' | sed 's/}{/}\n{/g; s/$/\n/' >hits.jsonl
ev-pack hits.jsonl >pack.json
jq -c '[.evidences[] | [.id, .provenance.mode]]' pack.json
jq -c '.stats.by_mode' pack.json
python3 "$CASEDIR/../../../scripts/validate-evidencepack.py" pack.json >/dev/null && echo "valid"
