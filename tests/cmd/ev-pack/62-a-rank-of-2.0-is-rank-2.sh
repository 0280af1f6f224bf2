# A lane's rank written as a real that is a whole number (2.0, as a
# JavaScript writer writes 2), in its signals (fts_rank) or as the hit's
# own rank, is that rank: the pack read it as "not found" (no rank in the
# evidence, none in the signals).  A rank signal that is not a whole number
# from 1 is bad input (exit 2, FILE:LINE).
exec 2>&1
hit='{"query_id":"q","query":"mites","id":"d:_top:0","doc_id":"d","score":1,"lane":"text"'
printf '%s\n' "$hit,\"rank\":2,\"signals\":{\"fts_score\":1,\"fts_rank\":2.0}}" |
	ev-pack | jq -c '.evidences[0] | [.signals, .evidence]'
printf '%s\n' "$hit,\"rank\":2.0}" | ev-pack | jq -c '.evidences[0] | [.signals, .evidence]'
for r in 2.5 0 -1 true; do
	printf '%s\n' "$hit,\"rank\":2,\"signals\":{\"fts_rank\":$r}}" >hits.jsonl
	ev-pack hits.jsonl
	echo "exit $?"
done
