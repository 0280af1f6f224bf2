exec 2>&1
export EV_UUID_SEED=1
ev-search-mv < /dev/null; echo "exit $?"
ev-search-mv --index missing.mvi < /dev/null; echo "exit $?"
echo "my notes" > notes.txt
ev-search-mv --index notes.txt < /dev/null; echo "exit $?"
ev-search-mv --index . < /dev/null; echo "exit $?"
ev-mv-load --index pages.mvi "$CASEDIR/records.jsonl" 2>/dev/null
ev-search-mv --index pages.mvi -k 0 < /dev/null; echo "exit $?"
ev-search-mv --index pages.mvi --candidates 0 < /dev/null; echo "exit $?"
ev-search-mv --index pages.mvi --lane "" < /dev/null; echo "exit $?"
ev-search-mv --index pages.mvi --nprobe 4 < /dev/null; echo "exit $?"
# a data file that is not the one the index was written with
for f in pages.mvi.*.npy; do head -c 150 "$f" > cut && mv cut "$f"; done
echo '{"vectors":[[0,0,1]]}' | ev-search-mv --index pages.mvi; echo "exit $?"
rm -f pages.mvi.*.npy
echo '{"vectors":[[0,0,1]]}' | ev-search-mv --index pages.mvi; echo "exit $?"
head -c 100 pages.mvi > cut.mvi
ev-search-mv --index cut.mvi < /dev/null; echo "exit $?"
