# provenance.retrieved_at is when a lane retrieved the hit, not when it was
# packed.  Each lane stamps the evidence of its hits (retrieved_at, UTC to
# the millisecond; EV_FIXED_TIME pins the lanes' clock as it pins ev-pack's):
# here the text lane ran at 01:00:00.250, the vector lane at 01:00:00.100
# and ev-pack at 02:00:00.  ev-fuse keeps each lane's stamp in its evidence
# entry; the pack gives each item the earliest stamp of its entries (the
# vector lane's for an item both lanes found), and its ignored_fields say
# nothing of it.  A hit no lane stamped (its stamps removed, as an older
# evkit wrote hits; or a stamp that is not a time, removed from the entry)
# is given the pack's time, and the pack says so.
. "$CASEDIR/../ev-hybrid/store.inc"
V="/usr/bin/python3 $top/scripts/validate-evidencepack.py"
echo '{"query_id":"q1","query":"flutter speed"}' >q.jsonl
EV_FIXED_TIME=2026-11-29T01:00:00.250Z ev-search-text --db db -k 3 q.jsonl >text.jsonl
ev-embed --db db --role query q.jsonl |
	EV_FIXED_TIME=2026-11-29T02:00:00.100+01:00 ev-search-vec --db db --index idx -k 3 >vector.jsonl
echo "--- the lanes' hits"
jq -c '[.lane, .id, [.evidence[].retrieved_at]]' text.jsonl vector.jsonl
echo "--- fused: each lane's stamp kept"
ev-fuse text.jsonl vector.jsonl >fused.jsonl
jq -c '[.id, [.evidence[] | [.lane, .retrieved_at]]]' fused.jsonl
echo "--- packed at 02:00:00"
EV_FIXED_TIME=2026-11-29T02:00:00Z ev-pack fused.jsonl >p.json
jq -r .generated_at p.json
jq -c '.evidences[] | [.id, .provenance.retrieved_at, [.evidence[] | [.lane, .retrieved_at]]]' p.json
jq -r '[.explain.ignored_fields[] | select(startswith("provenance."))] | length' p.json
$V p.json
echo "--- hits no lane stamped"
jq -c 'del(.evidence[].retrieved_at)' fused.jsonl | sed '1s/"lane":"vector",/&"retrieved_at":"yesterday",/' |
	EV_FIXED_TIME=2026-11-29T02:00:00Z ev-pack >p.json
jq -c '.evidences[] | [.id, .provenance.retrieved_at, [.evidence[] | .retrieved_at]]' p.json
jq -r '.explain.ignored_fields[] | select(startswith("provenance."))' p.json
$V p.json
echo "--- one stamped, one not: only the other says so"
{ sed -n 1p fused.jsonl; sed -n 2p fused.jsonl | jq -c 'del(.evidence[].retrieved_at)'; } |
	EV_FIXED_TIME=2026-11-29T02:00:00Z ev-pack -k 2 >p.json
jq -c '.evidences[] | [.id, .provenance.retrieved_at]' p.json
jq -r '.explain.ignored_fields[] | select(startswith("provenance."))' p.json
