# Each query needs an id of its own (the stages after merge hits by
# query_id): a second query of an id is bad input, naming its line and the
# first's; 7 and "7" are one id.  --skip-invalid passes over it.
exec 2>&1
sqlite3 p.db <"$CASEDIR/policies.sql"
sql="SELECT code, txt FROM note WHERE txt LIKE '%' || :query || '%'"
printf '%s\n' '{"query_id":"q","query":"swarm"}' '{"query_id":"q","query":"varroa"}' >q.jsonl
ev-search-sql --db p.db --id-column code --sql "$sql" q.jsonl >hits.jsonl; echo "exit $?"
jq -c '[.query_id, .id]' hits.jsonl
printf '%s\n' '{"query_id":7,"query":"swarm"}' '{"query_id":"7","query":"varroa"}' \
	'{"query_id":8,"query":"varroa"}' >q2.jsonl
ev-search-sql --db p.db --id-column code --sql "$sql" --skip-invalid q2.jsonl >hits.jsonl
echo "exit $?"
jq -c '[.query_id, .id]' hits.jsonl
