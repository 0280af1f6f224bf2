# A statement that writes, attaches, sets a pragma, or holds a second
# statement is refused (exit 2) and the file is left exactly as it was; a
# query text that looks like SQL is bound as text, never run.
sqlite3 p.db <"$CASEDIR/policies.sql"
before=$(cksum <p.db)
for sql in "DELETE FROM policy" "INSERT INTO note VALUES ('x', 'y')" "DROP TABLE note" \
	"ATTACH 'other.db' AS o" "PRAGMA journal_mode = DELETE" \
	"SELECT rowid FROM note; DELETE FROM note" "CREATE TABLE t(x)" \
	"SELECT rowid FROM note WHERE code = ?"; do
	echo '"q"' | ev-search-sql --db p.db --sql "$sql" 2>&1
	echo "exit $?"
done
echo '"x'"'"'); DELETE FROM note; --"' |
	ev-search-sql --db p.db --sql "SELECT rowid, txt FROM note WHERE txt = :query"
echo "exit $?"
[ "$(cksum <p.db)" = "$before" ] && echo "unchanged"
ls
