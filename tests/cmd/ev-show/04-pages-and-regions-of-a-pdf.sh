# A page of a PDF (doc::ID::page-N) is the text of its lines that chunks hold
# (a heading's is a section title) and their boxes;
# a region (::bbox-X0,Y0,X1,Y1) the lines whose boxes overlap it; a chunk of
# a PDF has its page and boxes.  A page the document does not have is not in
# the store, which says how many it has (exit status 1).  The multi-vector lane's hits of pages and
# regions carry such references, which ev-show resolves.
exec 2>&1
python3 "$CASEDIR/../ev-extract/mkpdf.py" pagebreak hive.pdf
ev-ingest --db kb.db --quiet hive.pdf
ev-show --db kb.db 'doc::hive.pdf::page-2' | jq -c '[.kind, .page, .text, .offset_start, .offset_end, (.boxes | length), .boxes[0]]'
ev-show --db kb.db 'doc::hive.pdf::page-1::bbox-0,0,600,120' | jq -c '[.kind, .page, .text, .boxes]'
ev-show --db kb.db 'hive.pdf:hive-inspection:0' | jq -c '[.kind, .page, .page_end, (.boxes | length)]'
ev-show --db kb.db 'doc::hive.pdf::page-9'
echo "status $?"
printf '{"id": "hive-p2", "vectors": [[1, 0], [0, 1]], "doc_id": "hive.pdf", "page": 2}\n{"id": "hive-p1-top", "vectors": [[1, 1]], "doc_id": "hive.pdf", "page": 1, "bbox": [0, 0, 600, 120]}\n' >pages.jsonl
ev-mv-load --index pages.mvi --model m pages.jsonl >/dev/null 2>&1
echo '{"query_id": "q", "vectors": [[1, 0]]}' | ev-search-mv --index pages.mvi --exact -k 2 |
	tee hits.jsonl | jq -c '[.id, .content_ref]'
ev-show --db kb.db hits.jsonl 2>/dev/null; echo "a file is a reference, not an input: status $?"
ev-show --db kb.db <hits.jsonl | jq -c '[.ref, .kind, .page]'
