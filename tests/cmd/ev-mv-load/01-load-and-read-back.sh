# Three records in; the index file's header, its records in id order, and
# the data file beside it (a .npy that numpy reads: 5 rows of 3 float32).
exec 2>&1
export EV_UUID_SEED=1
ev-mv-load --index pages.mvi "$CASEDIR/records.jsonl"; echo "exit $?"
head -n 5 pages.mvi
ls
od -A d -t f4 -j 128 pages.mvi.*.npy | head -4
head -c 80 pages.mvi.*.npy | tail -c 70; echo
