exec 2>&1
. "$CASEDIR/mkstore"; mkstore kb.db 6
ev-embed-load --db kb.db --index kb.faiss "$CASEDIR/vectors.jsonl" 2>/dev/null
sed "s/\"m1\"/\"m2\"/; s/\\[\\([^]]*\\)\\]/[\\1,1]/" "$CASEDIR/vectors.jsonl" > v2.jsonl
ev-embed-load --db kb.db --index kb.faiss v2.jsonl 2>&1 | head -1
ev-embed-load --db kb.db --index kb.faiss --reset v2.jsonl
sqlite3 kb.db "SELECT DISTINCT model, length(vector) FROM vec_vectors"
