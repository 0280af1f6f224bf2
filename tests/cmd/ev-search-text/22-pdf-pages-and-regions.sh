# A hit on a PDF's chunk carries metadata.page (and page_end for a chunk
# that crosses a page break), and in its text evidence the regions: the page
# and box of each line that holds a matched word, so that a viewer can
# highlight them.  A word of the title alone gives no region; a hit on HTML
# or Markdown has no page.  ev-pack keeps page, page_end and the offsets in
# each evidence's metadata, and its text report shows "p. N" (or "p. N-M").
mkdir docs
python3 "$CASEDIR/../ev-extract/mkpdf.py" pagebreak docs/hive.pdf
python3 "$CASEDIR/../ev-extract/mkpdf.py" fonts docs/pump.pdf
printf '<html><head><title>Mites</title></head><body><main><h1>Mites</h1><p>Varroa mites spread viruses.</p></main></body></html>\n' > docs/mites.html
ev-ingest --db kb.db --quiet docs
printf '%s\n' '{"query_id": "q1", "query": "varroa mites"}' '{"query_id": "q2", "query": "impeller seal"}' \
    '{"query_id": "q3", "query": "field manual pump"}' > q.jsonl
ev-search-text --db kb.db q.jsonl > hits.jsonl
echo "status $?"
jq -c '[.query_id, .id, .metadata.page, .metadata.page_end, .offset_start, .offset_end, .evidence[0].regions]' hits.jsonl
ev-pack < hits.jsonl > packs.jsonl
jq -c '.evidences[] | [.id, .metadata]' packs.jsonl
ev-pack --format text -k 2 < hits.jsonl | grep -E '^ *[0-9]+\. '
