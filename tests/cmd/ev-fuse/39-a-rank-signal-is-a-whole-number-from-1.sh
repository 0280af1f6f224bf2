# A lane's rank signal (fts_rank, vector_rank: LANE_rank) is a whole number
# from 1, 2.0 being 2: one of 2.5, 0 or below was passed on as if it were a
# rank.  Such a hit is bad input (exit 2, FILE:LINE), as its rank would be.
exec 2>&1
hit='{"query_id":"q1","id":"a","lane":"text","rank":2,"score":1'
printf '%s\n' "$hit,\"signals\":{\"fts_rank\":2.0}}" | ev-fuse | jq -c '.signals'
for r in 2.5 0 -1.0; do
	printf '%s\n' "$hit,\"signals\":{\"fts_rank\":$r}}" | ev-fuse
	echo "exit $?"
done
