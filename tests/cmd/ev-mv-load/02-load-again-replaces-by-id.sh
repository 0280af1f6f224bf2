# A second load replaces p2, adds p4 and keeps the rest; its old data file
# goes; a record given twice keeps its last vectors.
exec 2>&1
export EV_UUID_SEED=1
ev-mv-load --index pages.mvi "$CASEDIR/records.jsonl" 2>/dev/null
printf '%s\n' '{"id":"p2","vectors":[[9,9,9]],"model":"colpali-test","page":22}' \
  '{"id":"p4","vectors":[[1,2,3]],"model":"colpali-test"}' \
  '{"id":"p4","vectors":[[4,5,6],[7,8,9]],"model":"colpali-test"}' > more.jsonl
EV_UUID_SEED=2 ev-mv-load --index pages.mvi more.jsonl; echo "exit $?"
sed -n '3,$p' pages.mvi | grep -a '^{"id"'
ls
