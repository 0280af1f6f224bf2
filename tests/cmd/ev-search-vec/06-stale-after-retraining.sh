exec 2>&1
. "$CASEDIR/../ev-embed-load/mkstore"; mkstore kb.db 6
# the vectors are of the store's own model (as ev-embed records it) ...
sqlite3 kb.db "INSERT INTO meta VALUES ('embed.model', 'm1')"
ev-embed-load --db kb.db --index kb.faiss "$CASEDIR/../ev-embed-load/vectors.jsonl" 2>/dev/null
echo "{\"vector\":[1,0,0,0]}" | ev-search-vec --db kb.db --index kb.faiss -k 1 --no-snippet | jq -c "[.id, .score]"
# ... which is then retrained
sqlite3 kb.db "UPDATE meta SET value = 'm2' WHERE key = 'embed.model'"
echo "{\"vector\":[1,0,0,0]}" | ev-search-vec --db kb.db --index kb.faiss; echo "exit $?"
