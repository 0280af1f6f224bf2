# --train fits the model on the store's chunks and prints one summary line;
# the model id is a hash of the corpus and parameters, the same everywhere.
ev-ingest --db kb.db --quiet "$CASEDIR/docs.jsonl"
ev-embed --db kb.db --train --dim 4 | jq -c '{model, dim, chunks, terms, distinct_terms}'
ev-embed --db kb.db --train --dim 4 | jq -r .model
sqlite3 kb.db "SELECT key, value FROM meta WHERE key LIKE 'embed.%' ORDER BY key"
sqlite3 kb.db "SELECT count(*), min(length(vec)) FROM embed_vocab"
