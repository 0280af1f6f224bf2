# metadata.pages that is not an array is bad input even when metadata.lines
# beside it is a good array (and the other way round): the lines were read,
# and the bad pages deleted from the metadata unchecked, so the record was
# stored, its "pages" silently gone.  Exit 2, the store left as it was.
printf '%s\n' '{"id": "ok", "text": "abc"}' > ok.jsonl
ev-ingest --db kb.db --quiet ok.jsonl
sha256sum kb.db > before
printf '%s\n' '{"id": "b", "text": "abc", "metadata": {"pages": "all", "lines": [{"page": 1, "offset_start": 0, "offset_end": 3, "bbox": [0, 0, 1, 1]}]}}' > pages.jsonl
printf '%s\n' '{"id": "c", "text": "abc", "metadata": {"lines": 7, "pages": [{"page": 1, "offset_start": 0, "offset_end": 3}]}}' > lines.jsonl
for f in pages lines; do
	ev-ingest --db kb.db --quiet $f.jsonl 2>&1
	echo "status $?"
	cat $f.jsonl | ev-ingest --db kb.db --quiet 2>&1
	echo "status $?"
done
sha256sum -c --quiet before && echo "store unchanged"
