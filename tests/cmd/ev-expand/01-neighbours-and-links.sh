# From the best hit: its neighbour in text order (distance 1; the third
# section, 2 away, is out of --neighbours 1), the document it links to
# (hop 1) and the one that links on (hop 2, through sub/../gamma.md); a URL,
# a mail address, a link back and a link to a document not ingested are not
# followed.  Each scores the bringing hit's score times 0.5 per step.
. "$CASEDIR/make-store.sh"
echo '"hives"' | ev-search-text --db kb.db -k 3 --feedback 0 | ev-expand --db kb.db --hops 2 |
	jq -c '[.rank, .id, .lane, (.score * 1e6 | round), .evidence[-1]]'
