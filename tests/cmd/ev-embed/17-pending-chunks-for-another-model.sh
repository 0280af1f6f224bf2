# --pending --chunks lists the same chunks as chunk records, without
# vectors, for another embedder: pending for the index's model, or --model's.
exec 2>&1
ev-ingest --db kb.db --quiet "$CASEDIR/docs.jsonl"
ev-embed --db kb.db --pending --chunks | jq -r .id | wc -l
# an outside model's vectors for three chunks (as an external embedder would write them)
ev-embed --db kb.db --pending --chunks 2>/dev/null | head -3 |
	jq -c '{id, vector: [1, 2, (.text | length)], model: "ext-1"}' |
	ev-embed-load --db kb.db --index kb.faiss
ev-embed --db kb.db --pending --chunks | jq -c 'del(.content_hash)' | head -2
ev-embed --db kb.db --pending --chunks --model ext-2 2>&1 >/dev/null
ev-embed --db kb.db --pending --chunks | jq -c 'has("vector")' | sort -u
echo "usage:"
ev-embed --db kb.db --chunks; echo "exit $?"
ev-embed --db kb.db --pending --model m; echo "exit $?"
ev-embed --db kb.db --pending chunks.jsonl; echo "exit $?"
ev-embed --db kb.db --pending --train; echo "exit $?"
ev-embed --db kb.db --max-drift 0.5; echo "exit $?"
ev-embed --db kb.db --pending; echo "exit $?"
