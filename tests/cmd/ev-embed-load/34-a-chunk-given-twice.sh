# A chunk given two vectors in one load is bad input: which is meant, no
# load can tell (it kept the last, without a word).  Nothing is loaded (the
# store and index as they were); --skip-invalid keeps the first.  The same
# from an fvecs file whose ids name a chunk twice.  A chunk loaded again in
# a later load is replaced, as before.
exec 2>&1
. "$CASEDIR/mkstore"; mkstore kb.db 6
. "$CASEDIR/tryload"
ev-embed-load --db kb.db --index kb.faiss "$CASEDIR/vectors.jsonl" >/dev/null
printf '%s\n' '{"id":"d1:s1:1","vector":[0,0,0,1],"model":"m1"}' \
	'{"id":"d2:s1:0","vector":[0,2,0,0],"model":"m1"}' \
	'{"id":"d1:s1:1","vector":[0,0,3,0],"model":"m1"}' >twice.jsonl
tryload IDMap,Flat twice.jsonl
ev-embed-load --db kb.db --index kb.faiss --skip-invalid twice.jsonl
sqlite3 kb.db "SELECT c.id, hex(v.vector) FROM vec_vectors v JOIN chunks c USING (rowid) WHERE c.id IN ('d1:s1:1', 'd2:s1:0') ORDER BY 1"
# two 4-dimensional vectors, (1, 0, 0, 0) and (0, 1, 0, 0), for one chunk
z='\000\000\000\000' one='\000\000\200\077'
printf "\004\000\000\000$one$z$z$z\004\000\000\000$z$one$z$z" >v.fvecs
printf "d3:s1:0\nd3:s1:0\n" >ids.txt
before=$(load_state)
ev-embed-load --db kb.db --index kb.faiss --format fvecs --ids ids.txt --model m1 v.fvecs
echo "exit $?"
[ "$(load_state)" = "$before" ] && echo "store and index unchanged"
