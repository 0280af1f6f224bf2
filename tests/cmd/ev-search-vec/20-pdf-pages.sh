# A vector hit on a PDF's chunk carries metadata.page (and page_end for a
# chunk that crosses a page break), added to the document's metadata, as a
# text hit does (a paged record without other metadata gets it too); a hit on
# a Markdown chunk has none.
mkdir docs
python3 "$CASEDIR/../ev-extract/mkpdf.py" pagebreak docs/hive.pdf
python3 "$CASEDIR/../ev-extract/mkpdf.py" fonts docs/pump.pdf
printf '# Bees\n\nVarroa mites are counted with an alcohol wash.\n' > docs/bees.md
printf '%s\n' '{"id": "paged", "text": "Mites on page four.\n\nMites on page five.", "metadata": {"pages": [{"page": 4, "offset_start": 0, "offset_end": 19}, {"page": 5, "offset_start": 21, "offset_end": 39}], "lines": [{"page": 4, "offset_start": 0, "offset_end": 19, "bbox": [10, 20, 30, 40]}, {"page": 5, "offset_start": 21, "offset_end": 39, "bbox": [10, 20, 30, 40]}]}}' > paged.jsonl
ev-ingest --db kb.db --quiet docs paged.jsonl
ev-embed --db kb.db --train --dim 4 >/dev/null 2>&1
ev-embed --db kb.db --pending | ev-embed-load --db kb.db --index kb.faiss 2>/dev/null
printf '"varroa mites"\n' | ev-embed --db kb.db --role query |
    ev-search-vec --db kb.db --index kb.faiss -k 10 | jq -c '[.id, .metadata]' | sort
echo "status $?"
