# Chunk records get a unit-length "vector" and the "model"; other fields pass.
ev-ingest --db kb.db "$CASEDIR/docs.jsonl" > chunks.jsonl
ev-embed --db kb.db --train --dim 4 > /dev/null
ev-embed --db kb.db < chunks.jsonl |
	jq -c '{id, doc_id, title, model, n: (.vector | length),
		norm: ((.vector | map(. * .) | add | sqrt) * 1000 | round)}'
