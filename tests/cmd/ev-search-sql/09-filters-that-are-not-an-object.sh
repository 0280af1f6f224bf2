# Regression: "filters" that are not an object (an array, a string) were
# ignored, every :NAME then bound to NULL: with the optional-filter idiom
# (:year IS NULL OR year = :year) the query ran unfiltered, a silent wrong
# answer.  They are bad input, as in the other lanes: exit 2 naming the line;
# --skip-invalid skips the query.
sqlite3 p.db <"$CASEDIR/policies.sql"
printf '%s\n' '{"query":"a","filters":{"year":2021}}' '{"query":"b","filters":[{"year":2021}]}' \
	'{"query":"c","filters":"year=2021"}' '{"query":"d","filters":null}' >q.jsonl
sql="SELECT id, name FROM policy WHERE :year IS NULL OR year = :year"
ev-search-sql --db p.db --sql "$sql" q.jsonl 2>&1 >/dev/null
echo "exit $?"
ev-search-sql --db p.db --sql "$sql" --skip-invalid q.jsonl 2>err | jq -c '[.query, .id]'
cat err
