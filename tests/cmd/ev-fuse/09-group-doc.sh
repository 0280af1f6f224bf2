# --group doc: chunks of one document merge into one root candidate (id = doc_id),
# ranked in each lane by its best chunk; each chunk's evidence is kept with its id.
# q2 text: d4 1, d5 2 (chunk 1); vector: d5 1 (chunk 0), d4 2: a tie, d4 first by id.
ev-fuse --group doc "$CASEDIR/text.jsonl" "$CASEDIR/vector.jsonl" |
	jq -c "select(.query_id == \"q2\") | [.id,.rank,.score,.chunk_id,.chunks,.evidence]"
