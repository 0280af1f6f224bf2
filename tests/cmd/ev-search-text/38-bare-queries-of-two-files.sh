# A bare string's query_id is its line number counted over every file named,
# as cat would join them: two files of bare strings were each numbered from
# 1, and the second file's first query was refused as taking the first's id
# ("taken by the query of line 1", of the other file).  A query of an id
# given twice is still refused.
exec 2>&1
. "$CASEDIR/mkstore"; mkstore kb.db
printf '"plate"\n"wing"\n' > a.jsonl
printf '"layer"\n' > b.jsonl
ev-search-text --db kb.db -k 1 a.jsonl b.jsonl | jq -c '[.query_id, .query]'
echo "exit $?"
cat a.jsonl b.jsonl | ev-search-text --db kb.db -k 1 | jq -c '[.query_id, .query]'
sqlite3 t.db "CREATE TABLE t(id); INSERT INTO t VALUES (1);"
ev-search-sql --db t.db --sql "SELECT id AS rowid FROM t" a.jsonl b.jsonl | jq -c .query_id
printf '{"query_id":3,"query":"heat"}\n' > c.jsonl
ev-search-text --db kb.db -k 1 a.jsonl b.jsonl c.jsonl | jq -c .query_id
