# A page showed only the lines that one chunk held whole: a line where one
# chunk ends and the next begins (cut between words, or between sentences
# with --overlap 0) was missing, and so were the rows of a split table's
# later parts (whose text starts with the header rows).  A page now shows
# every line of it that chunks hold, and a region every such line in its box.
exec 2>&1
for kind in rows sentences table; do
	python3 "$CASEDIR/mkpaged.py" $kind >$kind.jsonl
done
echo "chunks' offsets"
ev-ingest --db kb.db --size 300 rows.jsonl table.jsonl 2>/dev/null |
	jq -c '[.doc_id, .offset_start, .offset_end]'
ev-ingest --db kb.db --size 100 --overlap 0 sentences.jsonl 2>/dev/null |
	jq -c '[.doc_id, .offset_start, .offset_end]'
ev-show --db kb.db 'doc::rows::page-2' | jq -c '[.page, .offset_start, .offset_end, (.boxes | length)]'
ev-show --db kb.db 'doc::rows::page-2' | jq -r .text
ev-show --db kb.db 'doc::rows::page-2::bbox-0,40,300,60' | jq -r .text
echo "sentences, --overlap 0"
ev-show --db kb.db 'doc::wrap::page-1' 'doc::wrap::page-2' | jq -r .text
echo "a split table"
ev-show --db kb.db 'doc::table.md::page-2' | jq -c '[.page, (.boxes | length)]'
ev-show --db kb.db 'doc::table.md::page-2' | jq -r .text
