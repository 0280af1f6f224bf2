# --index '' names no file: the load updated the store, then could not
# rename its new index over '' (exit 1, the store changed, a temporary file
# left behind).  Exit 2 before anything changes, as --db '' is.
exec 2>&1
. "$CASEDIR/mkstore"; mkstore kb.db 4
printf '{"id":"d1:s1:0","vector":[1,0],"model":"m"}\n' > v.jsonl
ev-embed-load --db kb.db --index kb.faiss v.jsonl > /dev/null 2>&1
sha256sum kb.db kb.faiss > before
ev-embed-load --db kb.db --index '' v.jsonl; echo "exit $?"
ev-embed-load --db '' --index kb.faiss v.jsonl; echo "exit $?"
sha256sum -c --quiet before && echo unchanged
