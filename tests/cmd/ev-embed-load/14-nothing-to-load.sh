exec 2>&1
. "$CASEDIR/mkstore"; mkstore kb.db 6
ev-embed-load --db kb.db --index kb.faiss < /dev/null; echo "exit $?"; ls
