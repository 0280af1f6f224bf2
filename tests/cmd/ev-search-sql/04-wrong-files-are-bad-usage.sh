# A missing file, a directory and a file that is not a database are bad
# usage (2); so are a missing --sql, SQL that does not compile, and an id
# column the statement does not select.
echo 'not a database' >text.txt
sqlite3 p.db <"$CASEDIR/policies.sql"
for args in "--db missing.db --sql 'SELECT 1 AS rowid'" "--db . --sql 'SELECT 1 AS rowid'" \
	"--db text.txt --sql 'SELECT 1 AS rowid'" "--db p.db" "--db p.db --sql 'SELEC'" \
	"--db p.db --sql 'SELECT name FROM policy'" \
	"--db p.db --sql 'SELECT id FROM policy' --snippet-columns nope" \
	"--db p.db --sql 'SELECT id FROM policy' -k 0"; do
	eval "ev-search-sql $args" </dev/null 2>&1
	echo "exit $?"
done
