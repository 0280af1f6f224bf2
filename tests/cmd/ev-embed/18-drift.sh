# --drift: the share of the store's term occurrences that belong to terms a
# training now would learn but the model lacks; exit 3 above --max-drift.
exec 2>&1
ev-ingest --db kb.db --quiet "$CASEDIR/docs.jsonl"
ev-embed --db kb.db --drift; echo "exit $?"
ev-embed --db kb.db --train --dim 4 > /dev/null
ev-embed --db kb.db --drift; echo "exit $?"
# new words in one chunk only: not learnable yet (min-df 2), no drift
printf '%s\n' '{"id":"n1","title":"Ramjet intake","text":"Ramjet intake spillage."}' |
	ev-ingest --db kb.db --quiet
ev-embed --db kb.db --drift | jq -c '{drift, new_terms}'
# in a second chunk they are learnable, and the model cannot see them
printf '%s\n' '{"id":"n2","title":"Ramjet combustor","text":"Ramjet intake spillage and combustor."}' |
	ev-ingest --db kb.db --quiet
ev-embed --db kb.db --drift --max-drift 0.05; echo "exit $?"
ev-embed --db kb.db --drift --max-drift 0.5 | jq -c '{drift, max_drift}'; echo "exit $?"
ev-embed --db kb.db --train --dim 4 > /dev/null
ev-embed --db kb.db --drift | jq -c '{drift, new_terms, chunks, trained_chunks}'
ev-embed --db kb.db --drift --max-drift 2; echo "exit $?"
