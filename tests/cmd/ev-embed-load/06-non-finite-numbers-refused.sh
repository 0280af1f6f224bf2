exec 2>&1
. "$CASEDIR/mkstore"; mkstore kb.db 6
for v in "[1e39,0,0,0]" "[NaN,0,0,0]" "[Infinity,0,0,0]" "[1e999,0,0,0]" "[\"1\",0,0,0]" "[[1],0,0,0]" "[]" "5" "null"; do
	echo "{\"id\":\"d1:s1:0\",\"vector\":$v,\"model\":\"m1\"}" | ev-embed-load --db kb.db --index kb.faiss
	echo "exit $?"
done 2>&1 | grep -v "nothing loaded"
