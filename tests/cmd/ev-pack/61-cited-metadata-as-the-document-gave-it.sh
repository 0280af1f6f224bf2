# A document's metadata is free-form JSON, and the fields a caller cites a
# document by are in the evidence's metadata "as the document gave it"
# (ev-pack(1)): an authority_id of a number, a doc_type of an array, an
# asset_id of an object were left out unsaid, as any cited field not a
# string was.  They pass as given; null and "" are still no value.  Through
# the store (ev-ingest keeps any other field) and from a hit as given.
cat >docs.jsonl <<'END'
{"id":"m2","text":"Rotate every client secret yearly.","authority_id":42,"doc_type":["policy","security"],"metadata":{"asset_id":{"kind":"vault","n":7},"asset_type":null,"source_document_id":""}}
END
ev-ingest --db kb.db --quiet docs.jsonl
echo '"rotate client secret"' | ev-search-text --db kb.db | ev-pack | jq -c '.evidences[].metadata'
hit='{"query_id":"q","query":"mites","id":"d:_top:0","doc_id":"d","rank":1,"score":1,"lane":"text"'
printf '%s\n' "$hit,\"section_path\":\"\",\"metadata\":{\"section_path\":[\"A\",\"B\"],\"published_date\":2019,\"asset_type\":false}}" |
	ev-pack | jq -c '.evidences[].metadata'
