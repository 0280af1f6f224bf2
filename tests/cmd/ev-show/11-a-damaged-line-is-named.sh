# A stored line not as ev-ingest writes it -- a page that is no page number
# (1.5, 0), offsets that are none, not seven numbers -- was left out of its
# page without a word: the page showed fewer lines and nobody knew why.  Each
# is now named on stderr, with its document, chunk and line, and the page
# shows its other lines (exit 0); a page of a chunk whose stored lines are
# not JSON at all is named the same way.
python3 "$CASEDIR/mkpaged.py" rows >rows.jsonl
ev-ingest --db kb.db --size 300 rows.jsonl >/dev/null 2>&1 || exit 1
sqlite3 kb.db "UPDATE chunk_regions SET lines = json_replace(lines, '\$[0][2]', 1.5,
    '\$[1][2]', 0, '\$[2][0]', 90, '\$[3]', json('[1, 2]')) WHERE rowid = 1" || exit 1
ev-show --db kb.db 'doc::rows::page-1' >page.jsonl 2>err.txt
echo "exit $?"
cat err.txt
jq -r .text page.jsonl | head -n 2
sqlite3 kb.db "UPDATE chunk_regions SET lines = 'not json' WHERE rowid = 2" || exit 1
ev-show --db kb.db 'doc::rows::page-1' 2>&1 >/dev/null | tail -n 1
