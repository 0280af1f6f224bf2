exec 2>&1
. "$CASEDIR/mkstore"; mkstore kb.db 6
# a (2, 2) float32 array [[1, 0], [0, 1]]: magic, version 1.0, header length 118
{ printf "\223NUMPY\001\000\166\000"; printf "%-117s\n" "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 2), }"
  printf "\000\000\200\077\000\000\000\000\000\000\000\000\000\000\200\077"; } > v.npy
printf "d3:s1:0\nd3:s1:1\n" > ids.txt
ev-embed-load --db kb.db --index kb.faiss --format npy --ids ids.txt --model ext v.npy
sqlite3 kb.db "SELECT rowid, model, hex(vector) FROM vec_vectors"
printf "not numpy" > bad.npy
ev-embed-load --db kb.db --index kb.faiss --format npy --ids ids.txt --model ext bad.npy; echo "exit $?"
