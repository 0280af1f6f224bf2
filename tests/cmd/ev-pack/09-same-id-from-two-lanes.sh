# Unfused hits of two lanes: the same id keeps the higher score and both
# lanes (mode hybrid); the order is the input's.
L=$CASEDIR/../ev-fuse
{ grep q1 "$L/text.jsonl"; grep q1 "$L/vector.jsonl"; } | ev-pack --by-document 0 | jq -c "[.evidences[] | [.id, .provenance.mode, .signals]]"
