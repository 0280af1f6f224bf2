# One lane alone: RRF of one list keeps its order; fields untouched.
ev-fuse --no-explain <"$CASEDIR/text.jsonl" | jq -c "[.query_id,.id,.rank,.title,.signals]"
