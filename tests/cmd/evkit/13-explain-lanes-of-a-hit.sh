# The lanes of a fused hit's explain (ev-fuse's: each {"lane", "found",
# "rank", "score", ...}) are held to their types by every stage that reads
# hits, as its evidence is: ev-rerank and ev-pack read a lane's rank and
# score there, and took a rank of "3" or a found of "yes" as no rank, no
# lane (the rank feature silently 0, the evidence entry without its rank).
# Such a hit is bad input, FILE:LINE and the field, exit 2.  What ev-fuse
# writes passes on.
exec 2>&1
printf '%s\n' '{"id":"d","text":"Mites rose in March."}' | ev-ingest --db kb.db --quiet
good='"query_id":"q","query":"mites","id":"d:_top:0","doc_id":"d","rank":1,"score":0.03,"lane":"fused"'
for lanes in '{}' '["text"]' '[{"lane":"text","found":"yes"}]' '[{"lane":"text","found":true,"rank":"3"}]' \
    '[{"lane":"vector","found":false},{"lane":"text","found":true,"score":"2"}]' '[{"lane":7}]'; do
	echo "-- $lanes"
	printf '%s\n' "{$good,\"explain\":{\"method\":\"rrf\",\"lanes\":$lanes}}" >hits.jsonl
	for cmd in "ev-pack" "ev-rerank --db kb.db" "ev-expand --db kb.db"; do
		$cmd hits.jsonl >/dev/null
		echo "exit $?"
	done
done
echo "-- a later hit of the query (ev-pack's scanned path):"
printf '%s\n' "{$good}" "{$good,\"explain\":{\"lanes\":[{\"rank\":0}]}}" | sed '2s/d:_top:0/x/' |
	ev-pack >/dev/null
echo "exit $?"
echo "-- what ev-fuse writes:"
printf '%s\n' '{"query_id":"q","query":"mites","id":"d:_top:0","doc_id":"d","rank":3,"score":2,"lane":"text"}' |
	ev-fuse | ev-rerank --db kb.db | ev-pack | jq -c '.evidences[] | [.id, .evidence]'
