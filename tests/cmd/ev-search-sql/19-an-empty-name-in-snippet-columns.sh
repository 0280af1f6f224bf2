# --snippet-columns with an empty name in its list (two commas together, or
# one at either end) is bad usage (exit 2), naming the option: 'name,,' was
# read as 'name', and ',' as no column at all, an empty snippet.
exec 2>&1
sqlite3 p.db <"$CASEDIR/policies.sql"
for cols in 'name,,id' 'name,' ','; do
	echo '"varroa"' | ev-search-sql --db p.db --sql 'SELECT id, name FROM policy' --snippet-columns "$cols"
	echo "exit $?"
done
