# A title weighs 4 words of the text where every chunk has one; where only
# some do, it weighs 1 + 3 x their share, so that having a title is no merit
# of itself: the six titled documents and four untitled, in one store and in
# two shards ranked with the sum of their statistics (one shard all titled,
# the other none), rank alike, byte for byte: the sum counts the titled
# chunks of both, and each shard weighs titles by the share of the whole.
export EV_FIXED_TIME=2026-11-30T02:10:33.123Z	# the lanes' stamp (retrieved_at), pinned
exec 2>&1
untitled() {
	printf '%s\n' '{"id":"u1","text":"A plate in a slipstream: the drag of a flat plate."}' \
	    '{"id":"u2","text":"Wing flutter at small viscosity."}' \
	    '{"id":"u3","text":"The boundary layer of a wing near a wall."}' \
	    '{"id":"u4","text":"Heat and the shear of a flow past a wall."}'
}
{ cat "$CASEDIR/docs.jsonl"; untitled; } | ev-ingest --db all.db --quiet || exit 1
ev-ingest --db a.db --quiet "$CASEDIR/docs.jsonl" || exit 1
untitled | ev-ingest --db b.db --quiet || exit 1
printf '%s\n' '{"query_id":"q1","query":"flat plate"}' '{"query_id":"q2","query":"wing boundary layer"}' > q.jsonl
ev-search-text --db a.db --stats-out a.stats q.jsonl && ev-search-text --db b.db --stats-out b.stats q.jsonl &&
ev-search-text --stats a.stats --stats b.stats --stats-out all.stats || exit 1
grep -E '^(rows|titled|sectioned)' a.stats b.stats all.stats
for s in a b; do ev-search-text --db $s.db --stats all.stats q.jsonl > $s.hits || exit 1; done
ev-search-text --db all.db q.jsonl | ev-fuse --method merge > one.hits
ev-fuse --method merge a.hits b.hits > merged.hits
jq -c '[.query_id, .id, .rank, .score]' one.hits
cmp one.hits merged.hits && echo "merged shards = one store, byte for byte"
