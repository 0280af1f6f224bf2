# Its hits fuse with another lane's like any lane's.
sqlite3 p.db <"$CASEDIR/policies.sql"
echo '"varroa"' | ev-search-sql --db p.db --sql "SELECT id, name FROM policy ORDER BY year DESC, id" >sql.jsonl
printf '%s\n' '{"query_id":1,"query":"varroa","id":"policy:2","doc_id":"policy:2","rank":1,"score":3.5,"lane":"text","snippet":"varroa"}' >text.jsonl
ev-fuse --method rrf --no-explain text.jsonl sql.jsonl | jq -c '[.id, .rank, (.evidence | map(.lane))]'
