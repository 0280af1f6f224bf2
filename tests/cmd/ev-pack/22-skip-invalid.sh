# --skip-invalid: bad hits are skipped, named and counted; exit 0.
L=$CASEDIR/../ev-fuse
{ head -1 "$L/text.jsonl"; echo "{\"query_id\":\"q1\",\"score\":1}"; echo "{oops"; tail -2 "$L/text.jsonl"; } |
	ev-pack --skip-invalid | jq -c "[.evidences[].id]"
