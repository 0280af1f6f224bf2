# --model-from: a model trained once, in one store, copied into two shards of
# the same documents: the shards embed a query and a chunk exactly as the
# trained store does (one model id, the same vectors), and a second copy
# writes nothing.  A store without a model is refused; the shard keeps its own.
exec 2>&1
ev-ingest --db all.db --quiet "$CASEDIR/docs.jsonl" || exit 1
ev-embed --db all.db --train | jq -r .model > id
for s in a b; do
	awk -v s=$s 'NR % 2 == (s == "a")' "$CASEDIR/docs.jsonl" | ev-ingest --db $s.db --quiet || exit 1
	ev-embed --db $s.db --model-from all.db | jq -c --arg id "$(cat id)" '[.model == $id, .from]'
done
ev-embed --db a.db --model-from all.db | jq -c 'keys'
echo '"heat transfer in a flat plate"' > q.jsonl
ev-embed --db all.db --role query q.jsonl > q.all
for s in a b; do ev-embed --db $s.db --role query q.jsonl | cmp - q.all && echo "$s: the same query vector"; done
ev-embed --db all.db --pending > all.vec
ev-embed --db a.db --pending > a.vec
head -1 a.vec | jq -c '.vector' > x; jq -c --arg id "$(head -1 a.vec | jq -r .id)" 'select(.id == $id) | .vector' all.vec | cmp - x && echo "a chunk: the same vector"
echo "refused:"
ev-ingest --db none.db --quiet "$CASEDIR/docs.jsonl"
ev-embed --db a.db --model-from none.db; echo "exit $?"
ev-embed --db a.db --model-from all.db q.jsonl; echo "exit $?"
ev-embed --db a.db --model-from all.db --train; echo "exit $?"
ev-embed --db a.db --role query q.jsonl | cmp - q.all && echo "a keeps the model"
