# A statement's "score" column ranks its rows: a row whose score is NULL, a
# text, a blob or infinite has no number to rank it by, and makes its query
# bad input (exit 2, naming the query's line and the row), where NULL used
# to score 1 and a text 0, without a word.  --skip-invalid passes over the
# query; a statement that selects a number answers as before.
exec 2>&1
sqlite3 p.db <"$CASEDIR/policies.sql"
printf '%s\n' '{"query_id":"q1","query":"a"}' >q.jsonl
for score in 'NULL' "'high'" "x'01'" '1e999' 'year / 1000.0' "coalesce(CAST(NULL AS REAL), 0)"; do
	echo "score: $score"
	ev-search-sql --db p.db --sql "SELECT id, name, $score AS score FROM policy ORDER BY id" \
		q.jsonl >hits.jsonl
	echo "exit $?"
	jq -c '[.id, .score]' hits.jsonl
done
ev-search-sql --db p.db --sql "SELECT id, name, NULL AS score FROM policy" --skip-invalid q.jsonl
echo "exit $?"
