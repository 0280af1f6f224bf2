# --k N is -k N's long spelling, with the same range check and message.
L=$CASEDIR/../ev-fuse
ev-fuse "$L/text.jsonl" "$L/vector.jsonl" >fused.jsonl
ev-pack --k 1 fused.jsonl | jq -c '[.query_id, (.evidences | length)]'
ev-pack --k=0 fused.jsonl | jq -c '[.query_id, (.evidences | length)]'
for k in -1 x 1000000001; do
	ev-pack --k $k </dev/null
	echo "status $?"
done 2>&1
