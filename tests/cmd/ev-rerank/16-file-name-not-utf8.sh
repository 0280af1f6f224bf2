# A file name is any bytes: one that is no UTF-8 (a Latin-1 name) made
# ev-rerank and ev-expand fail with "out of memory" (exit 1) on its first
# hit, as the place of each hit was kept as a JSON string.  They read it
# as any other file, and name it as given in their messages.
. "$CASEDIR/store.inc"
f=$(printf 'r\351sultats.jsonl')
printf '%s\n' '{"query_id":1,"query":"varroa","id":"honey:_top:0","rank":1,"score":2}' \
	'{"query_id":1,"query":"varroa","id":"titled:_top:0","rank":2,"score":1}' >"$f"
ev-rerank --db kb.db "$f" >out
echo "exit $?: $(jq -c .id out | tr '\n' ' ')"
ev-expand --db kb.db --neighbours 0 --timeline 0 "$f" >out
echo "exit $?: $(jq -c .id out | tr '\n' ' ')"
cat "$f" "$f" >"$f.2"
ev-rerank --db kb.db "$f.2" 2>&1 | od -An -c | head -3
