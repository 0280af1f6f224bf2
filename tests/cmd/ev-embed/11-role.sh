# --role forces the weighting: a chunk's text as a query is weighted by
# idf^1.5, unlike the document; --role query wants a "query" field.
exec 2>&1
ev-ingest --db kb.db --quiet "$CASEDIR/docs.jsonl"
ev-embed --db kb.db --train --dim 4 > /dev/null
echo '{"query":"heat heat conduction flow"}' | ev-embed --db kb.db --role query > q
echo '{"text":"heat heat conduction flow"}' | ev-embed --db kb.db --role document > d
jq -n --slurpfile q q --slurpfile d d \
	'([$q[0].vector, $d[0].vector] | transpose | map(.[0] * .[1]) | add) < 0.9999'
echo '{"text":"heat"}' | ev-embed --db kb.db --role query; echo "exit $?"
echo '{"query":"heat"}' | ev-embed --db kb.db --role document; echo "exit $?"
