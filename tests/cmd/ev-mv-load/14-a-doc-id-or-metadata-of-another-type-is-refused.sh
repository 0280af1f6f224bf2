# A record's doc_id and metadata go into its hits, where ev-fuse refuses a
# doc_id that is not a string and ev-pack metadata that is not an object: a
# load took them, and every search of the index then made hits the pipeline
# refused.  The load refuses them now, naming the line, the index as it was;
# in an offsets record too.
exec 2>&1
export EV_UUID_SEED=1
. "$CASEDIR/badrecord"
bad '{"id":"p8","vectors":[[1,1,1]],"model":"colpali-test","doc_id":7}'
bad '{"id":"p8","vectors":[[1,1,1]],"model":"colpali-test","doc_id":""}'
bad '{"id":"p8","vectors":[[1,1,1]],"model":"colpali-test","metadata":"page"}'
{ printf "\223NUMPY\001\000\166\000"; printf "%-117s\n" "{'descr': '<f4', 'fortran_order': False, 'shape': (1, 3), }"
  printf "\000\000\200\077\000\000\200\077\000\000\200\077"; } > v.npy	# one row (1,1,1)
echo '{"id":"p8","offset":0,"count":1,"doc_id":["d1"]}' >off.jsonl
ls > before.ls
EV_UUID_SEED=5 ev-mv-load --index pages.mvi --model colpali-test --npy v.npy off.jsonl; echo "exit $?"
cmp pages.mvi before.mvi && ls | cmp - before.ls && echo unchanged
