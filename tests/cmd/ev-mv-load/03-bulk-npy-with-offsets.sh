# A bulk load: every vector in one .npy (4 rows of 2), an offsets record per
# page naming its rows; --model for records that name none.
exec 2>&1
export EV_UUID_SEED=1
{ printf "\223NUMPY\001\000\166\000"; printf "%-117s\n" "{'descr': '<f4', 'fortran_order': False, 'shape': (4, 2), }"
  # rows (1,0) (0,1) (1,1) (2,0)
  printf "\000\000\200\077\000\000\000\000\000\000\000\000\000\000\200\077"
  printf "\000\000\200\077\000\000\200\077\000\000\000\100\000\000\000\000"; } > v.npy
printf '%s\n' '{"id":"a","offset":0,"count":2,"page":1}' '{"id":"b","offset":2,"count":2,"page":2}' > offsets.jsonl
ev-mv-load --index pages.mvi --npy v.npy --model m offsets.jsonl; echo "exit $?"
grep -a '^{"id"' pages.mvi
echo '{"query_id":"q","vectors":[[1,0],[0,1]]}' | ev-search-mv --index pages.mvi -k 2 | jq -c '[.id, .score, .page]'
printf '%s\n' '{"id":"c","offset":3,"count":2}' > beyond.jsonl
ev-mv-load --index pages.mvi --npy v.npy --model m beyond.jsonl; echo "exit $?"
ev-mv-load --index pages.mvi --npy missing.npy --model m offsets.jsonl; echo "exit $?"
printf 'not numpy' > bad.npy
ev-mv-load --index pages.mvi --npy bad.npy --model m offsets.jsonl; echo "exit $?"
