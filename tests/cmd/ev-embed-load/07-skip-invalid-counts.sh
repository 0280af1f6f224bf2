exec 2>&1
. "$CASEDIR/mkstore"; mkstore kb.db 6
{ cat "$CASEDIR/vectors.jsonl"; echo "{\"id\":\"zz\",\"vector\":[1,0,0,0],\"model\":\"m1\"}"; echo "{\"id\":"; echo "{\"id\":\"d1:s1:1\",\"vector\":[1,0],\"model\":\"m1\"}"; } | ev-embed-load --db kb.db --index kb.faiss --skip-invalid
echo "exit $?"
