# From the best hit: its neighbour in text order (distance 1; the third
# section, 2 away, is out of --neighbours 1), the document it links to
# (hop 1) and the one that links on (hop 2, through sub/../gamma.md); a URL,
# a mail address, a link back and a link to a document not ingested are not
# followed.  Each scores the bringing hit's score times 0.5 per step.  Each
# entry ev-expand adds says when it was retrieved, at ev-expand's time; the
# text lane's keeps the text lane's (both clocks pinned, EV_FIXED_TIME).
. "$CASEDIR/store.inc"
echo '"hives"' | EV_FIXED_TIME=2026-11-29T02:10:33.123Z ev-search-text --db kb.db -k 3 --feedback 0 |
	EV_FIXED_TIME=2026-11-29T02:10:34.5Z ev-expand --db kb.db --hops 2 |
	jq -c '[.rank, .id, .lane, (.score * 1e6 | round), .evidence[-1]]'
