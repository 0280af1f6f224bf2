# --help prints the synopsis (stdout, exit 0); no --db, a missing store or a
# file that is not a store are exit 2 with what to do.
ev-search-text --help | head -4
echo "status $?"
ev-search-text --version | sed 's/ [0-9.]*$/ VERSION/'
ev-search-text 2>&1; echo "status $?"
echo '"x"' | ev-search-text --db nosuch.db 2>&1; echo "status $?"
echo 'not a database at all, not at all, not at all, not at all, not at all' >junk.db
echo '"x"' | ev-search-text --db junk.db 2>err.txt; echo "status $?"
sed 's/(.*)/(REASON)/' err.txt
