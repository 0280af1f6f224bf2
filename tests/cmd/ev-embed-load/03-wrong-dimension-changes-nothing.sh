exec 2>&1
. "$CASEDIR/mkstore"; mkstore kb.db 6
ev-embed-load --db kb.db --index kb.faiss "$CASEDIR/vectors.jsonl" 2>/dev/null
cp kb.faiss before.faiss; sqlite3 kb.db "SELECT hex(vector) FROM vec_vectors" > before.txt
printf "%s\n" "{\"id\":\"d1:s1:0\",\"vector\":[0,0,0,1],\"model\":\"m1\"}" "{\"id\":\"d1:s1:1\",\"vector\":[1,2,3],\"model\":\"m1\"}" | ev-embed-load --db kb.db --index kb.faiss
echo "exit $?"
cmp before.faiss kb.faiss && sqlite3 kb.db "SELECT hex(vector) FROM vec_vectors" | cmp - before.txt && echo unchanged
