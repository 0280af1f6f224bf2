# --skip-invalid: bad records are skipped, each named, and counted; exit 0.
{ head -2 "$CASEDIR/text.jsonl"; echo "{\"query_id\":\"q1\",\"lane\":\"text\",\"rank\":3,\"score\":1}"
  head -1 "$CASEDIR/text.jsonl"; echo "{\"query_id\":\"q1\",\"id\":\"x\",\"lane\":\"text\",\"rank\":\"3\",\"score\":1}"
  echo "{not json"; tail -2 "$CASEDIR/text.jsonl"; } >hits.jsonl
ev-fuse --skip-invalid --no-explain hits.jsonl | jq -c "[.query_id,.id,.rank]"
