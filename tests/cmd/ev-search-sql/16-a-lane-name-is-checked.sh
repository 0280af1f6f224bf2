# --lane (lanes.structured.lane) is checked as ev-mv-load's and
# ev-search-mv's are: 1 to 31 lowercase letters, digits, '_' or '-', and not
# another command's lane.  Any name was taken: '' and 'Has Space' made hits
# ev-fuse refused, 'text' hits ev-fuse fused as the text lane's.  Its own
# lane, structured, may be named; the hits' signals are named for the lane
# (they were structured_score and structured_rank whatever --lane said, so
# two structured lanes fused shared one pair of signals).
exec 2>&1
sqlite3 t.db "CREATE TABLE t(id); INSERT INTO t VALUES (1);"
for l in "" "Has Space" text vector fused "$(printf 'a%.0s' $(seq 32))"; do
	echo '"x"' | ev-search-sql --db t.db --sql "SELECT id AS rowid FROM t" --lane "$l"
	echo "exit $?"
done
for l in structured policy_rules; do
	echo '"x"' | ev-search-sql --db t.db --sql "SELECT id AS rowid FROM t" --lane "$l" | jq -c '[.lane, .signals]'
done
