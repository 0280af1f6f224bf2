# A row whose id column is NULL has no id to cite: two such rows were both
# "note:null", one hit to the stages after, which merge hits by id.  Such a
# row now makes its query bad input, named by file and line (exit 2), and
# --skip-invalid passes over that query; a statement that leaves such rows
# out answers as before.
sqlite3 p.db <"$CASEDIR/policies.sql"
sqlite3 p.db "INSERT INTO note VALUES (NULL, 'varroa in autumn'), (NULL, 'varroa in spring')"
printf '%s\n' '{"query_id":"q1","query":"swarm"}' '{"query_id":"q2","query":"varroa"}' >q.jsonl
sql="SELECT code, txt FROM note WHERE txt LIKE '%' || :query || '%'"
ev-search-sql --db p.db --id-column code --sql "$sql" q.jsonl >hits.jsonl
echo "exit $?"
jq -c '[.query_id, .id]' hits.jsonl
ev-search-sql --db p.db --id-column code --sql "$sql" --skip-invalid q.jsonl >hits.jsonl
echo "exit $?"
jq -c '[.query_id, .id]' hits.jsonl
ev-search-sql --db p.db --id-column code --sql "$sql AND code IS NOT NULL" q.jsonl |
	jq -c '[.query_id, .id]'
