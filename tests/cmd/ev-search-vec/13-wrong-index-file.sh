# A wrong --index file is bad usage (exit 2): another store's index, a file
# that is not an index, a directory.  evkit's own index, damaged, is a
# failure of the system (exit 1), and the message says how to rebuild it.
exec 2>&1
. "$CASEDIR/../ev-embed-load/mkstore"; mkstore kb.db 6; mkstore other.db 6
ev-embed-load --db kb.db --index kb.faiss "$CASEDIR/../ev-embed-load/vectors.jsonl" 2>/dev/null
ev-embed-load --db other.db --index other.faiss "$CASEDIR/../ev-embed-load/vectors.jsonl" 2>/dev/null
q='{"vector":[1,0,0,0]}'
echo "$q" | ev-search-vec --db kb.db --index other.faiss; echo "exit $?"
echo "$q" | ev-search-vec --db kb.db --index kb.db; echo "exit $?"
mkdir dir
echo "$q" | ev-search-vec --db kb.db --index dir; echo "exit $?"
head -c 100 kb.faiss > cut.faiss
cp kb.faiss keep.faiss
head -c 200 keep.faiss > kb.faiss
echo "$q" | ev-search-vec --db kb.db --index kb.faiss; echo "exit $?"
head -2 keep.faiss | sed 's/"count":6/"count":7/' > kb.faiss
tail -c +$(($(head -2 keep.faiss | wc -c) + 1)) keep.faiss >> kb.faiss
echo "$q" | ev-search-vec --db kb.db --index kb.faiss; echo "exit $?"
echo "$q" | ev-search-vec --db kb.db --index cut.faiss; echo "exit $?"
