# Training needs chunks, and terms that occur in min-df chunks.
exec 2>&1
ev-ingest --db kb.db --quiet < /dev/null
ev-embed --db kb.db --train; echo "exit $?"
ev-ingest --db kb.db --quiet "$CASEDIR/docs.jsonl"
ev-embed --db kb.db --train --min-df 9; echo "exit $?"
ev-embed --db kb.db --train --min-df 1 --max-terms 3 | jq -c '{dim, terms}'
