# --lane (lanes.structured.lane) is checked as ev-mv-load's and
# ev-search-mv's are: 1 to 31 lowercase letters, digits, '_' or '-', and not
# another command's lane.  Any name was taken: '' and 'Has Space' made hits
# ev-fuse refused, 'text' hits ev-fuse fused as the text lane's.  Its own
# lane, structured, may be named.
exec 2>&1
sqlite3 t.db "CREATE TABLE t(id); INSERT INTO t VALUES (1);"
for l in "" "Has Space" text vector fused "$(printf 'a%.0s' $(seq 32))"; do
	echo '"x"' | ev-search-sql --db t.db --sql "SELECT id AS rowid FROM t" --lane "$l"
	echo "exit $?"
done
for l in structured policy_rules; do
	echo '"x"' | ev-search-sql --db t.db --sql "SELECT id AS rowid FROM t" --lane "$l" | jq -r .lane
done
