# A hit on a paged chunk carries the chunk's page and page_end in place of
# the "page" and "page_end" its document's own metadata has: the document's
# page_end goes when the chunk lies on one page (it used to stay, saying
# that a chunk on page 4 ran to page 11).
printf '%s\n' '{"id": "two", "text": "Mites on page four.\n\nMites on page five.", "metadata": {"page": 9, "page_end": 11, "author": "x", "pages": [{"page": 4, "offset_start": 0, "offset_end": 19}, {"page": 5, "offset_start": 21, "offset_end": 39}], "lines": [{"page": 4, "offset_start": 0, "offset_end": 19, "bbox": [10, 20, 30, 40]}, {"page": 5, "offset_start": 21, "offset_end": 39, "bbox": [10, 20, 30, 40]}]}}' \
    '{"id": "one", "text": "Mites on page four alone.", "metadata": {"author": "y", "page_end": 11, "pages": [{"page": 4, "offset_start": 0, "offset_end": 25}], "lines": [{"page": 4, "offset_start": 0, "offset_end": 25, "bbox": [10, 20, 30, 40]}]}}' > paged.jsonl
ev-ingest --db kb.db --quiet paged.jsonl
printf '"mites"\n' | ev-search-text --db kb.db > hits.jsonl
echo "status $?"
jq -c '[.id, .metadata]' hits.jsonl | sort
