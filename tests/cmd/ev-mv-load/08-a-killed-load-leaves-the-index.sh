# What a load killed midway leaves (its data file half written, its
# temporary index file) is not the index: searches still read the old one,
# and the next load removes those files.  Files that only look alike stay.
exec 2>&1
export EV_UUID_SEED=1
ev-mv-load --index pages.mvi "$CASEDIR/records.jsonl" 2>/dev/null
head -c 1000 /dev/zero > pages.mvi.0123abcd-ef0.npy
head -c 1000 /dev/zero > pages.mvi.tmp.4242
touch pages.mvi.notes.npy pages.mvi.tmp.x other.mvi.0123abcd-ef0.npy
echo '{"vectors":[[0,0,1]]}' | ev-search-mv --index pages.mvi -k 1 | jq -c '[.id, .score]'
EV_UUID_SEED=2 ev-mv-load --index pages.mvi < /dev/null; echo "exit $?"
ls
echo '{"vectors":[[0,0,1]]}' | ev-search-mv --index pages.mvi -k 1 | jq -c '[.id, .score]'
