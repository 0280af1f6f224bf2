# --index "" (an unset variable) names no file: bad usage, exit 2, with the
# message ev-mv-load, ev-embed-load and ev-search-vec give (ev-search-mv
# said "cannot open index ''", exit 1); a directory, likewise.
exec 2>&1
echo '{"vectors":[[0,0,1]]}' | ev-search-mv --index ""; echo "exit $?"
ev-mv-load --index "" "$CASEDIR/records.jsonl"; echo "exit $?"
mkdir dir
echo '{"vectors":[[0,0,1]]}' | ev-search-mv --index dir; echo "exit $?"
ev-mv-load --index dir "$CASEDIR/records.jsonl"; echo "exit $?"
