# A vector hit on a numbered clause's chunk carries its clause id in
# metadata.clause_id (in place of any of its document's own, else after its
# other keys; before a paged chunk's page), as a text hit does: the lane used
# to leave it out, so that a fused hit's metadata depended on which lane
# ev-fuse took it from.  ev-embed --pending --chunks writes the clause id in
# its chunk records too, as ev-ingest does.
printf '%s\n' '{"id": "a", "text": "Mites in the hive.\n\n1.2 Mites must be counted every week.", "metadata": {"author": "x"}}' \
    '{"id": "b", "text": "Mites in the yard.\n\n3.1 Mites are counted in spring.", "metadata": {"clause_id": "old", "zone": "z"}}' \
    '{"id": "c", "text": "2.4 Mites are counted by hand."}' \
    '{"id": "d", "text": "Mites on page four.\n\n1.1 Mites on page five.", "metadata": {"author": "p", "pages": [{"page": 4, "offset_start": 0, "offset_end": 19}, {"page": 5, "offset_start": 21, "offset_end": 44}], "lines": [{"page": 4, "offset_start": 0, "offset_end": 19, "bbox": [10, 20, 30, 40]}, {"page": 5, "offset_start": 21, "offset_end": 44, "bbox": [10, 20, 30, 40]}]}}' \
    '{"id": "e", "text": "Mites counted, and no clause.", "metadata": {"author": "y"}}' > docs.jsonl
ev-ingest --db kb.db --quiet docs.jsonl
ev-embed --db kb.db --train --dim 4 >/dev/null 2>&1
ev-embed --db kb.db --pending --chunks --model other 2>/dev/null | jq -c '[.id, .metadata]' | sort
ev-embed --db kb.db --pending | ev-embed-load --db kb.db --index kb.faiss 2>/dev/null
. "$CASEDIR/lanemeta"; lanemeta "mites counted page"
