# Dated documents nearest in time; a chunk found directly keeps its own score
# and lane and gains the expansion's evidence beside its own; a document
# listed in metadata "links" is followed; --per-hit bounds what one hit adds.
. "$CASEDIR/make-store.sh"
echo '"mites"' | ev-search-text --db kb.db -k 3 --feedback 0 | ev-expand --db kb.db --timeline 1 --per-hit 1 |
	jq -c '[.rank, .id, .lane, (.evidence | map([.lane, .from, (.distance // .hops)]))]'
