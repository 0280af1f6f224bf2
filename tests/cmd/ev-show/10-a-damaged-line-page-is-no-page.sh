# A page's lines were picked by casting each stored line's page, a double,
# to long: 1.5 (not a page) showed the line on page 1, and 1e300 or -1e300
# is out of long's range (undefined behaviour).  The page is compared as a
# double: a line whose page is not the page's number exactly, as in a store
# damaged by hand, is skipped, and the page shows its other lines.
exec 2>&1
python3 "$CASEDIR/mkpaged.py" rows >rows.jsonl
ev-ingest --db kb.db --size 300 rows.jsonl >/dev/null 2>&1 || exit 1
sqlite3 kb.db "UPDATE chunk_regions SET lines = json_replace(lines, '\$[0][2]', 1.5,
    '\$[1][2]', 1e300, '\$[2][2]', -1e300, '\$[3][2]', 0) WHERE rowid = 1" || exit 1
ev-show --db kb.db 'doc::rows::page-1' >page.jsonl
echo "exit $?"
jq -r .text page.jsonl | head -n 3
