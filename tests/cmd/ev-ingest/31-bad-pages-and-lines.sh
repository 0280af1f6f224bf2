# A record's metadata.pages and metadata.lines (a paged document, as
# ev-extract writes it) are checked like the rest of the record: a bad entry
# is named, exit 2, and the store is left as it was; good ones put a page on
# each chunk, whoever wrote them.  A box must not be inverted (x1 < x0 or
# y1 < y0 were stored).
printf '%s\n' '{"id": "ok", "text": "First page words.\n\nSecond page words.", "metadata": {"pages": [{"page": 4, "offset_start": 0, "offset_end": 17}, {"page": 5, "offset_start": 19, "offset_end": 37}], "lines": [{"page": 4, "offset_start": 0, "offset_end": 17, "bbox": [10, 20, 30, 40]}, {"page": 5, "offset_start": 19, "offset_end": 37, "bbox": [10, 20, 30.5, 40]}]}}' > good.jsonl
ev-ingest --db kb.db good.jsonl | jq -c '[.id, .page, .page_end]'
sqlite3 kb.db .dump > before.sql
printf '%s\n' '{"id": "a", "text": "abc", "metadata": {"lines": [{"page": 1, "offset_start": 0, "offset_end": 9, "bbox": [0, 0, 1, 1]}]}}' > long.jsonl
printf '%s\n' '{"id": "b", "text": "abc", "metadata": {"pages": "all"}}' > pages.jsonl
printf '%s\n' '{"id": "c", "text": "abc", "metadata": {"lines": [{"page": 1, "offset_start": 0, "offset_end": 1, "bbox": [0, 0, 1]}]}}' > bbox.jsonl
printf '%s\n' '{"id": "d", "text": "abc", "metadata": {"lines": [{"page": 1, "offset_start": 0, "offset_end": 1, "bbox": [30, 0, 10, 1]}]}}' > inverted.jsonl
printf '%s\n' '{"id": "e", "text": "abc", "metadata": {"lines": [{"page": 1, "offset_start": 0, "offset_end": 1, "bbox": [0, 40, 1, -2]}]}}' > upside-down.jsonl
for f in long pages bbox inverted upside-down; do
	ev-ingest --db kb.db good.jsonl $f.jsonl
	echo "status $?"
done
sqlite3 kb.db .dump | cmp -s - before.sql && echo "store unchanged"
