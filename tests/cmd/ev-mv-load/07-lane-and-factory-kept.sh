# --lane and --factory are the index's: later loads keep them; a later
# --factory changes it.
exec 2>&1
export EV_UUID_SEED=1
ev-mv-load --index pages.mvi --lane colpali --factory Flat "$CASEDIR/records.jsonl"; echo "exit $?"
ev-mv-load --index pages.mvi < /dev/null; echo "exit $?"
ev-mv-load --index pages.mvi --factory HNSW8 < /dev/null; echo "exit $?"
echo '{"vectors":[[0,0,1]]}' | ev-search-mv --index pages.mvi -k 1 | jq -c '[.lane, .id, .signals]'
