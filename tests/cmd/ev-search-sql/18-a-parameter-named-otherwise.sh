# SQLite names a parameter with ':', '@' or '$'; the lane binds the ':'
# ones.  '@query' and '$query' were refused as "not named", which they are;
# the message now says what to write.  '?' and '?1' are positional.
exec 2>&1
sqlite3 p.db "CREATE TABLE p(id INTEGER PRIMARY KEY, name TEXT); INSERT INTO p VALUES (1, 'alpha');"
for q in @query '$query' '?' '?1' :query; do
	echo '"alpha"' | ev-search-sql --db p.db --sql "SELECT id AS rowid FROM p WHERE name = $q" |
		jq -c .id
done
