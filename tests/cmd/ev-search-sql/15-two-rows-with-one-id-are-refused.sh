# Two rows of the statement with the same id (a join that repeats a row, a
# UNION ALL) made two hits of one id for one query, which ev-fuse then
# refused ("appears twice in lane 'structured'").  The query is bad input
# naming both rows (exit 2, or skipped with --skip-invalid), and the message
# says how to keep one row an id.  An id as an integer and as text are one
# id (sql:1), as they are in the hits.
exec 2>&1
sqlite3 t.db "CREATE TABLE t(id, score); INSERT INTO t VALUES (1, 0.5), (2, 0.9), (1, 0.7);"
printf '%s\n' '"first"' '"second"' > q.jsonl
hits() {
	ev-search-sql --db t.db "$@" q.jsonl > hits.jsonl
	echo "exit $?"
	jq -c '[.query_id, .id, .rank, .score]' hits.jsonl
}
hits --sql "SELECT id AS rowid, score FROM t"
hits --sql "SELECT 1 AS rowid UNION ALL SELECT '1'"
hits --sql "SELECT id AS rowid, score FROM t" --skip-invalid
hits --sql "SELECT id AS rowid, max(score) AS score FROM t GROUP BY id"
hits --sql "SELECT id AS rowid, score FROM t" -k 2
