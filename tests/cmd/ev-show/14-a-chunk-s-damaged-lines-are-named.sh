# A chunk's stored lines not as ev-ingest writes them, in a store damaged by
# hand: a line of page 1.5 went into the chunk's boxes and the text lane's
# regions as page 1.5, unsaid; lines that are not JSON made ev-show say
# "out of memory" and the text lane "damaged, or out of memory".  ev-show
# now leaves such lines out of a chunk's boxes and names them on stderr
# (exit 0), as it does a page's; the text lane, whose hits carry them,
# names the chunk and how to repair the store, exit 1, as for a text that
# is not UTF-8.
python3 "$CASEDIR/mkpaged.py" rows >rows.jsonl
ev-ingest --db kb.db --size 300 rows.jsonl >/dev/null 2>&1 || exit 1
sqlite3 kb.db "UPDATE chunk_regions SET lines = json_replace(lines, '\$[0][2]', 1.5)
    WHERE rowid = 1" || exit 1
ev-show --db kb.db chunk:rows:_top:0 2>err.txt >out.jsonl
echo "exit $?"
cat err.txt
jq -c '[.page, (.boxes | length), ([.boxes[].page] | unique)]' out.jsonl
echo '"row01 alpha"' | ev-search-text --db kb.db -k 1 2>&1; echo "exit $?"
sqlite3 kb.db "UPDATE chunk_regions SET lines = 'not json' WHERE rowid = 1" || exit 1
ev-show --db kb.db chunk:rows:_top:0 2>&1 | jq -R -c '(fromjson? | [.page, .boxes]) // .'
echo '"row01 alpha"' | ev-search-text --db kb.db -k 1 2>&1; echo "exit $?"
