# --k N is -k N's long spelling, with the same range check and message.
ev-fuse --k 2 --rrf-k 1 --no-explain "$CASEDIR/text.jsonl" "$CASEDIR/vector.jsonl" | jq -c "[.query_id,.id,.rank]"
ev-fuse --k=1 --no-explain "$CASEDIR/text.jsonl" | jq -c "[.query_id,.id,.rank]"
for k in 0 -3 x 1000000001; do
	ev-fuse --k $k </dev/null
	echo "status $?"
done 2>&1
