exec 2>&1
. "$CASEDIR/mkstore"; mkstore kb.db 6
# two 2-dimensional vectors: (1, 0) and (0, 1)
printf "\002\000\000\000\000\000\200\077\000\000\000\000\002\000\000\000\000\000\000\000\000\000\200\077" > v.fvecs
printf "d1:s1:0\nd2:s1:1\n" > ids.txt
ev-embed-load --db kb.db --index kb.faiss --format fvecs --ids ids.txt --model ext v.fvecs
sqlite3 kb.db "SELECT rowid, model, hex(vector) FROM vec_vectors"
printf "d1:s1:0\n" > short.txt
ev-embed-load --db kb.db --index kb.faiss --format fvecs --ids short.txt --model ext v.fvecs; echo "exit $?"
head -c 20 v.fvecs | ev-embed-load --db kb.db --index kb.faiss --format fvecs --ids ids.txt --model ext; echo "exit $?"
ev-embed-load --db kb.db --index kb.faiss --format fvecs v.fvecs; echo "exit $?"
