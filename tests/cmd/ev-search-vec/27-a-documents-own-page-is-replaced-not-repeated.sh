# A vector hit on a paged chunk whose document's own metadata has "page"
# (and "page_end") carries the chunk's in their place, where the document's
# stand (else after its other keys), as a text hit does; a chunk on one page
# has no page_end.  The lane
# used to write "page" twice, and ev-fuse refused its line as a duplicate
# key.
printf '%s\n' '{"id": "two", "text": "Mites on page four.\n\nMites on page five.", "metadata": {"page": 9, "page_end": 11, "author": "x", "zone": "x", "pages": [{"page": 4, "offset_start": 0, "offset_end": 19}, {"page": 5, "offset_start": 21, "offset_end": 39}], "lines": [{"page": 4, "offset_start": 0, "offset_end": 19, "bbox": [10, 20, 30, 40]}, {"page": 5, "offset_start": 21, "offset_end": 39, "bbox": [10, 20, 30, 40]}]}}' \
    '{"id": "one", "text": "Mites on page four alone.", "metadata": {"author": "y", "page_end": 11, "zone": "y", "pages": [{"page": 4, "offset_start": 0, "offset_end": 25}], "lines": [{"page": 4, "offset_start": 0, "offset_end": 25, "bbox": [10, 20, 30, 40]}]}}' \
    '{"id": "nopage", "text": "Mites in the page of a paged record with no metadata.", "metadata": {"pages": [{"page": 2, "offset_start": 0, "offset_end": 53}], "lines": [{"page": 2, "offset_start": 0, "offset_end": 53, "bbox": [10, 20, 30, 40]}]}}' \
    '{"id": "plain", "text": "Mites counted on a plain page.", "metadata": {"page": 7}}' > docs.jsonl
ev-ingest --db kb.db --quiet docs.jsonl
ev-embed --db kb.db --train --dim 4 >/dev/null 2>&1
ev-embed --db kb.db --pending | ev-embed-load --db kb.db --index kb.faiss 2>/dev/null
. "$CASEDIR/lanemeta"; lanemeta "mites page"
