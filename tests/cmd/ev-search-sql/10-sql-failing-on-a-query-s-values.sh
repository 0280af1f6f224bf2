# A statement that compiles may still fail on what one query binds to it: a
# filter that is not the JSON that json_extract() is given here.  That query
# is bad input, named by file and line (exit 2), and --skip-invalid passes
# over it and answers the others; it was a runtime failure (exit 1) that no
# option could pass over.
sqlite3 p.db <"$CASEDIR/policies.sql"
printf '%s\n' '{"query_id":"q1","query":"a","filters":{"j":"{\"y\":2021}"}}' \
	'{"query_id":"q2","query":"b","filters":{"j":"[not json"}}' \
	'{"query_id":"q3","query":"c","filters":{"j":"{\"y\":2022}"}}' >q.jsonl
sql="SELECT id, name FROM policy WHERE year = json_extract(:j, '\$.y')"
ev-search-sql --db p.db --sql "$sql" q.jsonl >hits.jsonl
echo "exit $?"
jq -c '[.query_id, .id]' hits.jsonl
ev-search-sql --db p.db --sql "$sql" --skip-invalid q.jsonl >hits.jsonl
echo "exit $?"
jq -c '[.query_id, .id]' hits.jsonl
