# End to end: ev-extract | ev-ingest, then ev-search-text finds a word of
# page 2; the chunk's section_path comes from the PDF's headings, and its
# offsets fall in page 2's range of metadata.pages.
python3 "$CASEDIR/mkpdf.py" fonts manual.pdf
ev-extract manual.pdf > docs.jsonl
ev-ingest --db kb.db --all < docs.jsonl | jq -c '[.id, .section_path]'
echo '{"query_id": "q1", "query": "impeller"}' | ev-search-text --db kb.db > hits.jsonl
jq -c '[.id, .section_path, .offset_start, .offset_end]' hits.jsonl
python3 - <<'PY'
import json
doc = json.load(open("docs.jsonl"))
for h in map(json.loads, open("hits.jsonl")):
    pages = [p["page"] for p in doc["metadata"]["pages"]
             if p["offset_start"] <= h["offset_start"] < p["offset_end"]]
    boxes = [l["bbox"] for l in doc["metadata"]["lines"]
             if l["offset_start"] < h["offset_end"] and l["offset_end"] > h["offset_start"]
             and "impeller" in doc["text"].encode()[l["offset_start"]:l["offset_end"]].decode()]
    print(h["id"], "page", pages, "box of 'impeller'", boxes)
PY
