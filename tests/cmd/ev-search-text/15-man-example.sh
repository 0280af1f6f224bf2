# The first example of man/ev-search-text.1, as written there.
printf '%s\n' \
  '{"id":"d1","title":"Wing","text":"lift of a wing in a slipstream"}' \
  '{"id":"d2","title":"Plate","text":"shear flow past a flat plate"}' \
  | ev-ingest --db kb.db --quiet
echo '"slipstrem wings"' | ev-search-text --db kb.db -k 5 |
  jq -c '[.doc_id, .snippet, .evidence[0].fuzzy[0].expansion]'
