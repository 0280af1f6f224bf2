# Regression: a vector record made from a chunk's older text (it names the
# content_hash it was made from, as ev-embed's records do) was stored under
# the chunk's current content hash, so the chunk was never embedded again
# ('ev-embed --pending' listed nothing): a stale vector for good.  It is
# refused (exit 2, naming the line), the store and index unchanged; a record
# with the chunk's current hash, or none, loads; --skip-invalid skips it.
exec 2>&1
. "$CASEDIR/mkstore"; mkstore kb.db 6
ev-embed-load --db kb.db --index kb.faiss "$CASEDIR/vectors.jsonl" 2>/dev/null
{ sqlite3 kb.db .dump; cat kb.faiss; } | sha256sum > before.sum
printf '%s\n' '{"id":"d1:s1:0","content_hash":"sha256:c0","vector":[0,0,1,1],"model":"m1"}' \
	'{"id":"d1:s1:1","content_hash":"sha256:old","vector":[0,1,1,0],"model":"m1"}' > v.jsonl
ev-embed-load --db kb.db --index kb.faiss v.jsonl; echo "exit $?"
{ sqlite3 kb.db .dump; cat kb.faiss; } | sha256sum | cmp -s - before.sum && echo unchanged
ev-embed-load --db kb.db --index kb.faiss --skip-invalid v.jsonl; echo "exit $?"
sqlite3 kb.db "SELECT rowid, content_hash, hex(vector) FROM vec_vectors WHERE rowid <= 2"
# the same through Jansson (the fast reader leaves a \u escape to it)
echo '{"id":"d2:s1:0","content_hash":"sha256:old","vector":[1,1,1,1],"model":"m1","note":"\u00e9"}' |
	ev-embed-load --db kb.db --index kb.faiss; echo "exit $?"
