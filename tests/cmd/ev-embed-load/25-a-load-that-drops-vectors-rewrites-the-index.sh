# Regression: a load that staged no vector while it knew no model (--reset
# with no input; the index's model stale since 'ev-embed --train') dropped
# vectors from the store (all of them; those of removed or changed chunks)
# but left the index file and its record as they were, still current: the
# vector lane went on finding chunks the store no longer had a vector for.
# The index is now rewritten from the store, its model kept (and, when
# stale, still known as the store's model before the retraining).
exec 2>&1
. "$CASEDIR/mkstore"; mkstore kb.db 6; mkstore own.db 6
state() { sqlite3 "$1" "SELECT (SELECT count(*) FROM vec_vectors), group_concat(value, ' ') FROM meta
	WHERE key IN ('vindex.count', 'vindex.generation', 'vindex.embed_linked') ORDER BY key"; }
ev-embed-load --db kb.db --index kb.faiss "$CASEDIR/vectors.jsonl" 2>/dev/null
ev-embed-load --db kb.db --index kb.faiss --reset < /dev/null; echo "exit $?"
state kb.db
echo '{"vector":[1,0,0,0],"model":"m1"}' | ev-search-vec --db kb.db --index kb.faiss -k 1 | jq -c .id
# the store's own model, then retrained: its vectors are stale
ev-embed --db own.db --train > /dev/null
ev-embed --db own.db --pending | ev-embed-load --db own.db --index own.faiss 2>/dev/null
ev-embed --db own.db --train --dim 2 > /dev/null
sqlite3 own.db "INSERT INTO chunk_tombstones VALUES (1)"
ev-embed-load --db own.db --index own.faiss < /dev/null; echo "exit $?"
state own.db
ev-embed --db own.db --pending | ev-embed-load --db own.db --index own.faiss; echo "exit $?"
state own.db
