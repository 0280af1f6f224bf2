# Two shards of the six documents, each scored with the sum of both shards'
# statistics (--stats-out, then --stats) and merged (ev-fuse --method merge):
# the same hits, ranks, scores and snippets as one store holding all six, typo
# repair included (the vocabulary is the sum's); each shard's own statistics
# rank differently.
export EV_FIXED_TIME=2026-11-29T02:10:33.123Z	# the lanes' stamp (retrieved_at), pinned
exec 2>&1
. "$CASEDIR/mkstore"; mkstore all.db
sed -n '1p;3p;5p' "$CASEDIR/docs.jsonl" | ev-ingest --db a.db --quiet || exit 1
sed -n '2p;4p;6p' "$CASEDIR/docs.jsonl" | ev-ingest --db b.db --quiet || exit 1
printf '%s\n' '{"query_id":"q1","query":"flat plate boundary layer"}' \
	'{"query_id":"q2","query":"wing slipstream drag"}' '{"query_id":"q3","query":"shear flow over a wing"}' \
	'{"query_id":"q4","query":"slipstraem"}' > q.jsonl
ev-search-text --db a.db --stats-out a.stats q.jsonl && ev-search-text --db b.db --stats-out b.stats q.jsonl &&
ev-search-text --stats a.stats --stats b.stats --stats-out all.stats || exit 1
head -6 all.stats; grep '^phrase' all.stats
ev-search-text --db all.db --stats-out one.stats q.jsonl && cmp all.stats one.stats && echo "the sum is the statistics of one store"
for s in a b; do ev-search-text --db $s.db --stats all.stats q.jsonl > $s.hits || exit 1; done
ev-search-text --db all.db q.jsonl | ev-fuse --method merge > one.hits
ev-fuse --method merge a.hits b.hits > merged.hits
jq -c '[.query_id, .id, .rank, .score]' merged.hits
cmp one.hits merged.hits && echo "merged shards = one store, byte for byte"
for s in a b; do ev-search-text --db $s.db q.jsonl > $s.own || exit 1; done
ev-fuse --method merge a.own b.own | cmp -s - one.hits || echo "each shard's own statistics: another ranking"
