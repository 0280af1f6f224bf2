exec 2>&1
. "$CASEDIR/mkstore"; mkstore kb.db 6
ev-embed-load --db kb.db --index kb.faiss "$CASEDIR/vectors.jsonl"
sqlite3 kb.db "SELECT key, value FROM meta WHERE key LIKE 'vindex.%' AND key <> 'vindex.store_id' ORDER BY key"
sqlite3 kb.db "SELECT rowid, model, content_hash, length(vector) FROM vec_vectors"
head -c 15 kb.faiss; echo
ls
