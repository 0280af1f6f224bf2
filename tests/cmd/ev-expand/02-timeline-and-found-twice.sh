# Dated documents nearest in time; a chunk found directly keeps its own score
# and lane and gains the expansion's evidence beside its own; a document
# listed in metadata "links" is followed; --per-hit bounds what one hit adds.
# Each piece of evidence the expansion adds has its own score (times 1e6),
# what that step brings, also on a chunk found directly.
. "$CASEDIR/store.inc"
echo '"mites"' | ev-search-text --db kb.db -k 3 --feedback 0 | ev-expand --db kb.db --timeline 1 --per-hit 1 |
	jq -c '[.rank, .id, .lane, (.evidence | map([.lane, .from, (.distance // .hops), (.score | if . then . * 1e6 | round else null end)]))]'
