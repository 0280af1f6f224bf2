# A queries file whose last line has no newline (as an editor or printf may
# leave it) is searched as ev-search-text searches it: each query without a
# query_id takes its line number, the last one's included, so the sharded
# search gives the hits of one store.  (The last query took the number of
# the line before it, and its hits were merged into that query's.)
export EV_FIXED_TIME=2026-11-29T02:10:33.123Z	# the lanes' stamp (retrieved_at), pinned
exec 2>&1
shard=$CASEDIR/../../../scripts/ev-shard
cat "$CASEDIR"/../ev-search-text/docs.jsonl "$CASEDIR"/../ev-search-text/bees.jsonl > corpus.jsonl
"$shard" split -n 2 corpus.jsonl a 2>/dev/null || exit 1
"$shard" index a 2>/dev/null || exit 1
ev-ingest --db one.db --quiet corpus.jsonl
for q in '"flat plate"' '{"query":"wing slipstream"}'; do
	printf '"honey bees"\n\n%s' "$q" > q.jsonl
	"$shard" search -k 2 a q.jsonl -- --feedback 0 > merged.jsonl || exit 1
	jq -c '[.query_id, .query, .doc_id, .rank]' merged.jsonl
	ev-search-text --db one.db -k 2 --feedback 0 q.jsonl | ev-fuse --method merge | cmp - merged.jsonl &&
		echo "the hits of one store ($(wc -l < merged.jsonl))"
done
