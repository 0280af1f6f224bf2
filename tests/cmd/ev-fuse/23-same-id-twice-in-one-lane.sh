# The same id twice in one lane of one query: exit 2 naming the second line.
{ head -3 "$CASEDIR/text.jsonl"; head -1 "$CASEDIR/text.jsonl"; } >hits.jsonl
ev-fuse hits.jsonl
