# --skip-invalid: bad records are named, skipped and counted; the good ones
# are embedded; exit 0.  Without it the first bad record stops the run (2).
exec 2>&1
ev-ingest --db kb.db --quiet "$CASEDIR/docs.jsonl"
ev-embed --db kb.db --train --dim 4 > /dev/null
printf '%s\n' '"wing lift"' '{"query": 5}' '{"id":' '[1]' '{"title":"x"}' '"heat"' > in.jsonl
ev-embed --db kb.db --skip-invalid --log log.jsonl in.jsonl | jq -c '[.query_id, .query]'; echo "exit $?"
jq -c .counts log.jsonl
ev-embed --db kb.db in.jsonl > out.jsonl; echo "exit $?"
jq -c '[.query_id, .query]' out.jsonl
