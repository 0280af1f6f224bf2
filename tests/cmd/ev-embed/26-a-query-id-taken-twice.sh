# Each query needs an id of its own (the stages after merge hits by
# query_id): a second query of an id is bad input, naming its line and the
# first's; 7 and "7" are one id.  --skip-invalid passes over it, and a
# query skipped for another fault leaves its id free.  Chunks are not
# queries: their ids are not taken.
exec 2>&1
ev-ingest --db kb.db --quiet "$CASEDIR/docs.jsonl"
ev-embed --db kb.db --train --dim 4 >/dev/null
printf '%s\n' '{"query_id":"q","query":"wind"}' '{"query_id":"q","query":"rain"}' >q.jsonl
ev-embed --db kb.db --role query q.jsonl >v.jsonl; echo "exit $?"
jq -c '[.query_id, .query]' v.jsonl
printf '%s\n' '{"query_id":7,"query":"wind"}' '{"query_id":"7","query":"rain"}' \
	'{"query_id":"r","query":5}' '{"query_id":"r","query":"rain"}' \
	'{"id":"7","text":"a chunk"}' >q2.jsonl
ev-embed --db kb.db --skip-invalid q2.jsonl >v.jsonl; echo "exit $?"
jq -c '[.query_id // .id, .query // .text]' v.jsonl
