# A bad query: "PROG: FILE:LINE: what" and exit 2, the queries before it
# answered; --skip-invalid skips it and says so.  A "query" that is not a
# string is bad here, not in the next stage: it went into every hit.
exec 2>&1
ev-mv-load --index pages.mvi "$CASEDIR/records.jsonl" 2>/dev/null
ok='{"query_id":"ok","vectors":[[0,0,1]]}'
for bad in '"text only"' '{"query":"x"}' '{"vectors":[]}' '{"vectors":[[1,2]]}' '{"vectors":[[1,"2",3]]}' \
    '{"vectors":[[1,2,1e39]]}' '{"vectors":[[1,2,3]],"model":"other"}' \
    '{"vectors":[[1,2,3]],"filters":{"doc_id":"d1"}}' '{"vectors":[[1,2,3]],"query_id":[1]}' \
    '{"vectors":[[1,2,3]],"query":5}' '{"vectors":'; do
	printf '%s\n%s\n' "$ok" "$bad" > q.jsonl
	ev-search-mv --index pages.mvi -k 1 q.jsonl > hits.jsonl; echo "exit $?"
	jq -c '[.query_id, .id]' hits.jsonl
done
printf '%s\n%s\n%s\n' "$ok" '{"vectors":[]}' '{"query_id":"ok2","vectors":[[0,0,1]]}' > q.jsonl
ev-search-mv --index pages.mvi -k 1 --skip-invalid q.jsonl > hits.jsonl; echo "exit $?"
jq -c '[.query_id, .id]' hits.jsonl
