# One stream on stdin with the lanes interleaved per query is grouped as it comes.
{ grep q1 "$CASEDIR/text.jsonl"; grep q1 "$CASEDIR/vector.jsonl"; grep q2 "$CASEDIR/vector.jsonl"; grep q2 "$CASEDIR/text.jsonl"; } |
	ev-fuse --no-explain | jq -c "[.query_id,.id,.rank]"
