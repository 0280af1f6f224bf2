# A document's page count, its metadata's page_count (ev-extract's, or the
# document's own), is a whole number: 6.0 (as a JavaScript writer writes 6)
# is 6.  ev-show read it as no count, and said of page 5 of a document of
# six pages that the document has no pages.  "6" is no count.
exec 2>&1
printf '%s\n' '{"id":"a","text":"Mites.","metadata":{"page_count":6}}' \
    '{"id":"b","text":"Mites.","metadata":{"page_count":6.0}}' \
    '{"id":"c","text":"Mites.","metadata":{"page_count":"6"}}' | ev-ingest --db kb.db --quiet
for d in a b c; do
	ev-show --db kb.db "doc::$d::page-5" "doc::$d::page-9"
	echo "exit $?"
done
