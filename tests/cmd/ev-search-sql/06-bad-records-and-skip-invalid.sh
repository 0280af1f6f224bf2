# A bad query record is named by file and line (exit 2); --skip-invalid
# skips and counts it, and answers the others.
sqlite3 p.db <"$CASEDIR/policies.sql"
printf '%s\n' '"hive"' '{"query": 3}' '"mite"' >q.jsonl
sql="SELECT id, name FROM policy WHERE name LIKE '%' || :query || '%'"
ev-search-sql --db p.db --sql "$sql" q.jsonl 2>&1 >/dev/null
echo "exit $?"
ev-search-sql --db p.db --sql "$sql" --skip-invalid q.jsonl 2>err | jq -c '[.query_id, .id]'
cat err
