# A shard with no vector (here three documents in five shards leave two
# empty) gets no index, and the vector lane finds nothing there: the search
# succeeds with the hits of one store holding every document, embedded with
# the same model.  (Every vector search failed on the empty shards' missing
# index, exit 1.)
export EV_FIXED_TIME=2026-11-29T02:10:33.123Z	# the lanes' stamp (retrieved_at), pinned
exec 2>&1
shard=$CASEDIR/../../../scripts/ev-shard
head -n 3 "$CASEDIR"/../ev-search-text/docs.jsonl > corpus.jsonl
"$shard" split -n 5 corpus.jsonl a 2>/dev/null || exit 1
"$shard" index a 2>/dev/null || exit 1
for i in 0 1 2 3 4; do
	echo "shard $i: $(wc -l < a/shard-$i.jsonl) documents, $(ls a/shard-$i.faiss a/shard-$i.novectors 2>/dev/null | sed 's|.*\.||')"
done
printf '%s\n' '"flat plate"' > q.jsonl
"$shard" search --lane vector -k 2 a q.jsonl > merged.jsonl; echo "exit $?"
ev-ingest --db one.db --quiet corpus.jsonl
ev-embed --db one.db --model-from a/model.db > /dev/null 2>&1
ev-embed --db one.db --pending 2>/dev/null | ev-embed-load --db one.db --index one.faiss 2>/dev/null
ev-embed --db a/model.db --role query q.jsonl | ev-search-vec --db one.db --index one.faiss -k 2 |
	ev-fuse --method merge | cmp - merged.jsonl && echo "the hits of one store ($(wc -l < merged.jsonl))"
