# A filter that is an array is bound as its JSON text, which json_each()
# reads; json_each and json_tree were refused ("vtable constructor failed",
# as SQLite declares them on their first use), so the array could not be
# used.  Other table-valued functions and pragmas stay refused, saying why.
exec 2>&1
sqlite3 p.db "CREATE TABLE p(id INTEGER PRIMARY KEY, name TEXT);
INSERT INTO p VALUES (1, 'alpha'), (2, 'beta'), (3, 'gamma');"
echo '{"query_id":"q","query":"x","filters":{"names":["gamma","alpha"]}}' |
	ev-search-sql --db p.db --sql "SELECT id AS rowid, name FROM p
	    WHERE name IN (SELECT value FROM json_each(:names)) ORDER BY id" | jq -c '[.id, .snippet]'
echo '{"query_id":"q","query":"x","filters":{"f":{"a":{"b":"beta"}}}}' |
	ev-search-sql --db p.db --sql "SELECT p.id AS rowid FROM p, json_tree(:f) t
	    WHERE t.atom = p.name" | jq -c .id
for t in dbstat "pragma_table_info('p')"; do
	echo '"x"' | ev-search-sql --db p.db --sql "SELECT 1 AS rowid FROM $t"
	echo "exit $?"
done
