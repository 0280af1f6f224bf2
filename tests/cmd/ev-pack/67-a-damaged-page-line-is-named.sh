# A visual lane's page hit comes without text: with --db, its snippet is
# the page's text from the store, as ev-show gives it.  A stored line the
# store holds damaged (a page of 1.5) is left out of that text; ev-pack
# used to leave it out without a word, and now names it on stderr as
# ev-show does (exit 0: the page's other lines are the snippet).
printf '%s\n' '{"id": "p", "text": "Mites on the first line.\nMites on the second line.", "metadata": {"pages": [{"page": 1, "offset_start": 0, "offset_end": 50}], "lines": [{"page": 1, "offset_start": 0, "offset_end": 24, "bbox": [10, 20, 30, 40]}, {"page": 1, "offset_start": 25, "offset_end": 50, "bbox": [10, 50, 30, 70]}]}}' >docs.jsonl
ev-ingest --db kb.db --quiet docs.jsonl || exit 1
printf '%s\n' '{"query_id":"q","query":"mites","id":"doc::p::page-1","doc_id":"p","page":1,"rank":1,"score":0.9,"lane":"visual"}' >hits.jsonl
ev-pack --db kb.db hits.jsonl 2>&1 | jq -c '.evidences[] | [.id, .snippet]'
sqlite3 kb.db "UPDATE chunk_regions SET lines = json_replace(lines, '\$[0][2]', 1.5)" || exit 1
ev-pack --db kb.db hits.jsonl 2>err.txt | jq -c '.evidences[] | [.id, .snippet]'
cat err.txt
ev-show --db kb.db 'doc::p::page-1' 2>err.txt | jq -c '.text'
cat err.txt
