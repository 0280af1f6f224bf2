# Regression: a comment after the statement's semicolon (as a plan's SQL
# under a YAML block often ends) was taken for a second statement and the
# SQL refused; only a statement after the first is one.
exec 2>&1
sqlite3 p.db <"$CASEDIR/policies.sql"
for sql in "SELECT rowid, code FROM note; -- the notes" "SELECT rowid, code FROM note;
/* the notes */
" "SELECT rowid, code FROM note; ; -- x" "SELECT rowid FROM note; -- x
SELECT rowid FROM note" "SELECT rowid FROM note; /* x */ DELETE FROM note"; do
	echo '"q"' | ev-search-sql --db p.db --sql "$sql" > hits.jsonl
	echo "exit $?"
	jq -c .id hits.jsonl
done
