# --pending embeds exactly the chunks with no vector of the store's model:
# all of them at first, none once loaded, the new ones after an ingest, all
# of them again after a retraining (whose load then replaces the stale
# vectors); the input is never read.
exec 2>&1
ev-ingest --db kb.db --quiet "$CASEDIR/docs.jsonl"
ev-embed --db kb.db --train --dim 4 > /dev/null
cycle() {
	ev-embed --db kb.db --pending < /dev/zero > v.jsonl; echo "exit $?"
	echo "$(wc -l < v.jsonl) records: $(jq -r .id v.jsonl | tr '\n' ' ')"
	ev-embed-load --db kb.db --index kb.faiss < v.jsonl
}
cycle
cycle
printf '%s\n' '{"id":"fin","title":"Fin flutter","text":"Flutter of a swept fin in supersonic flow."}' |
	ev-ingest --db kb.db --quiet
cycle
# the vector records are what ev-embed writes for the chunk records
ev-ingest --db kb.db --all "$CASEDIR/docs.jsonl" | ev-embed --db kb.db | jq -c '[.id, .vector]' | sort > a
sqlite3 kb.db "UPDATE meta SET value = 'x' WHERE key = 'embed.model'"
sqlite3 kb.db "UPDATE embed_model SET model_id = 'x'"
ev-embed --db kb.db --pending 2>/dev/null | jq -c 'select(.doc_id != "fin") | [.id, .vector]' | sort > b
cmp a b && echo "same vectors as ev-embed of the chunk records"
# retrained: every chunk is pending, and the load replaces the stale vectors
ev-embed --db kb.db --train --dim 3 > /dev/null
echo '"wing"' | ev-embed --db kb.db | ev-search-vec --db kb.db --index kb.faiss > /dev/null; echo "exit $?"
cycle
echo '"wing"' | ev-embed --db kb.db | ev-search-vec --db kb.db --index kb.faiss -k 1 | jq -r .id
sqlite3 kb.db "SELECT count(*), count(DISTINCT model) FROM vec_vectors"
