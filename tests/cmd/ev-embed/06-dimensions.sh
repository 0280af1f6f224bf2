# --dim 0 and beyond the maximum are refused; more than the corpus supports
# (min(chunks, terms)) gives a model of that many dimensions, with a warning.
exec 2>&1
ev-ingest --db kb.db --quiet "$CASEDIR/docs.jsonl"
ev-embed --db kb.db --train --dim 0; echo "exit $?"
ev-embed --db kb.db --train --dim 2049; echo "exit $?"
ev-embed --db kb.db --train --dim -3; echo "exit $?"
ev-embed --db kb.db --train --dim 4x; echo "exit $?"
ev-embed --db kb.db --train --dim 100 | jq -c '{dim, chunks, terms}'
ev-embed --db kb.db --train --dim 1 | jq -c '{dim}'
echo '"heat"' | ev-embed --db kb.db | jq -c .vector
