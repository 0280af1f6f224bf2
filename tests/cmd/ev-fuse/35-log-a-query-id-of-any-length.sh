# --log keeps the frame and the outputs of a query whose query_id is of any
# length, as the lanes take it: the ToolRun line wrote each id into 256 bytes
# and passed over a query whose id did not fit, so that a log of queries with
# ids of 256 bytes or more held neither their frames nor their outputs.
# Here the hits of q1 three times, under ids of 255, 256 and 300 bytes.
for len in 255 256 300; do
	id=$(printf 'x%.0s' $(seq $((len - 2))))q1
	for lane in text vector; do
		jq -c --arg id "$id" 'select(.query_id == "q1") | .query_id = $id' "$CASEDIR/$lane.jsonl" >>$lane.jsonl
	done
done
ev-fuse --log run.log text.jsonl vector.jsonl >fused.jsonl
echo "exit $?"
jq -r ".query_id | length" fused.jsonl | uniq -c
jq -c '.counts.queries, (.inputs_logged.queries[] | [(.query_id | length), .query, .lanes])' run.log
jq -c '.outputs[] | [(.query_id | length), [.hits[].id]]' run.log
