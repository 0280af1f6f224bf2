# A wrong --index file is refused before any input is read, exit 2, and
# left as it was: another store's index, a directory.  evkit's own index,
# damaged, is rebuilt.
exec 2>&1
. "$CASEDIR/mkstore"; mkstore kb.db 6; mkstore other.db 6
ev-embed-load --db other.db --index other.faiss "$CASEDIR/vectors.jsonl" 2>/dev/null
cp other.faiss before.faiss
ev-embed-load --db kb.db --index other.faiss "$CASEDIR/vectors.jsonl"; echo "exit $?"
cmp before.faiss other.faiss && echo "other.faiss unchanged"
sqlite3 kb.db "SELECT count(*) FROM meta WHERE key LIKE 'vindex.%'"
mkdir dir
ev-embed-load --db kb.db --index dir "$CASEDIR/vectors.jsonl"; echo "exit $?"
ev-embed-load --db kb.db --index kb.faiss "$CASEDIR/vectors.jsonl" 2>/dev/null
# kb.db has an index now: other.db's is still not its
ev-embed-load --db kb.db --index other.faiss < /dev/null; echo "exit $?"
head -c 150 kb.faiss > cut && mv cut kb.faiss
ev-embed-load --db kb.db --index kb.faiss < /dev/null; echo "exit $?"
echo '{"vector":[1,0,0,0]}' | ev-search-vec --db kb.db --index kb.faiss -k 1 --no-snippet | jq -r .id
