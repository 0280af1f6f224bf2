# A directory named as statistics, to read (--stats) or to write
# (--stats-out), is bad usage, exit 2, as a directory named as a query file
# is; they were a read or write error, exit 1, --stats-out's after the sums
# were made.
exec 2>&1
. "$CASEDIR/mkstore"; mkstore kb.db
mkdir stats.d
echo '"plate"' | ev-search-text --db kb.db --stats stats.d; echo "exit $?"
ev-search-text --db kb.db --stats-out stats.d; echo "exit $?"
ls stats.d
