# After a load, chunks left without a vector of the index's model are
# counted, with what to run: a pipeline stopped after ev-ingest committed
# (here: only the first three chunks embedded) loses nothing silently.
exec 2>&1
ev-ingest --db kb.db --quiet "$CASEDIR/../ev-embed/docs.jsonl"
ev-embed --db kb.db --train --dim 4 > /dev/null
ev-ingest --db kb.db --all "$CASEDIR/../ev-embed/docs.jsonl" | head -3 | ev-embed --db kb.db |
	ev-embed-load --db kb.db --index kb.faiss
ev-embed --db kb.db --pending 2>/dev/null | ev-embed-load --db kb.db --index kb.faiss
