exec 2>&1
. "$CASEDIR/mkstore"; mkstore kb.db 6
ev-embed-load --db kb.db --index kb.faiss "$CASEDIR/vectors.jsonl" 2>/dev/null
cp kb.faiss before.faiss
ev-embed-load --db kb.db --index kb.faiss < /dev/null
cmp before.faiss kb.faiss && echo "index unchanged"
sqlite3 kb.db "SELECT value FROM meta WHERE key = 'vindex.generation'"
rm kb.faiss
ev-embed-load --db kb.db --index kb.faiss < /dev/null
sqlite3 kb.db "SELECT value FROM meta WHERE key = 'vindex.generation'"
