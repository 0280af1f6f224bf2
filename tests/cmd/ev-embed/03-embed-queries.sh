# Query records, and a line that is a JSON string (its query_id is its line
# number); unknown fields such as "filters" pass through.
ev-ingest --db kb.db --quiet "$CASEDIR/docs.jsonl"
ev-embed --db kb.db --train --dim 4 > /dev/null
ev-embed --db kb.db "$CASEDIR/queries.jsonl" |
	jq -c '{query_id, query, filters, model, n: (.vector | length),
		norm: ((.vector | map(. * .) | add | sqrt) * 1000 | round)}'
