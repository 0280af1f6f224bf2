# Each query needs an id of its own: the stages after merge hits by
# query_id, so two queries of one id were fused and packed as one, their
# hits interleaved, with no word said.  The second is now bad input (exit
# 2), naming its line and the first's; 7 and "7" are one id, as the stages
# after read them; a line that is only a string takes its line number.
# --skip-invalid passes over it, and a query skipped for another fault
# leaves its id free.
exec 2>&1
printf '%s\n' '{"id":"a","text":"comet tail."}' '{"id":"b","text":"comet dust."}' >docs.jsonl
ev-ingest --db kb.db --quiet docs.jsonl || exit 1
printf '%s\n' '{"query_id":"q","query":"tail"}' '{"query_id":"q","query":"dust"}' >q.jsonl
ev-search-text --db kb.db -k 1 q.jsonl >hits.jsonl; echo "exit $?"
jq -c '[.query_id, .query, .doc_id]' hits.jsonl
printf '%s\n' '{"query_id":7,"query":"tail"}' '{"query_id":"7","query":"dust"}' '"comet"' \
	'{"query_id":3,"query":"dust"}' '{"query_id":"r","query":"tail","filters":5}' \
	'{"query_id":"r","query":"dust"}' >q2.jsonl
ev-search-text --db kb.db -k 1 --skip-invalid q2.jsonl >hits.jsonl; echo "exit $?"
jq -c '[.query_id, .query, .doc_id]' hits.jsonl
