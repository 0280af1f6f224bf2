# A bad record anywhere in the input: a message naming its line, exit 2, the
# index and its files exactly as they were; --skip-invalid skips it.
exec 2>&1
export EV_UUID_SEED=1
. "$CASEDIR/badrecord"
bad '{"id":"p8","vectors":[[1,1]],"model":"colpali-test"}'
bad '{"id":"p8","vectors":[[1,1,1],[1,1]],"model":"colpali-test"}'
bad '{"id":"p8","vectors":[[1,1,1]],"model":"other"}'
bad '{"id":"p8","vectors":[[1,1,1]]}'
bad '{"id":"p8","vectors":[]}'
bad '{"id":"p8","vectors":[[1,"x",1]],"model":"colpali-test"}'
bad '{"id":"p8","vectors":[[1,1e39,1]],"model":"colpali-test"}'
bad '{"id":"","vectors":[[1,1,1]],"model":"colpali-test"}'
bad '{"vectors":[[1,1,1]],"model":"colpali-test"}'
bad '["p8"]'
bad '{"id":"p8","vectors":[[1,1,1]],"model":"colpali-test"'
EV_UUID_SEED=4 ev-mv-load --index pages.mvi --skip-invalid bad.jsonl; echo "exit $?"
