# Regression: hits that carry no "query" text (ev-search-vec's and
# ev-search-mv's for query records without one; hand-made hits) made every
# added hit fail to build, reported as "out of memory", exit 1.  An added
# hit copies the query text when its bringing hit has one, and leaves it
# out otherwise.
exec 2>&1
. "$CASEDIR/store.inc"
printf '%s\n' '{"query_id":1,"id":"news-1:_top:0","score":1}' '{"query_id":2,"query":"q","id":"news-1:_top:0","score":1}' |
	ev-expand --db kb.db --neighbours 0 --hops 0 --timeline 1 > hits.jsonl
echo "exit $?"
jq -c '[.query_id, .query, .id, .score]' hits.jsonl
