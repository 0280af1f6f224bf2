exec 2>&1
. "$CASEDIR/mkstore"; mkstore kb.db 6
echo "{\"id\":\"d7:s1:0\",\"vector\":[0,0,0,1],\"model\":\"m1\"}" | ev-embed-load --db kb.db --index kb.faiss
echo "exit $?"; ls
