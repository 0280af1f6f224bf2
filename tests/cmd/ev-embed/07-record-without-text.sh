# A record with neither "text" nor "query" stops the run, naming the line;
# the records before it were already written (streaming).
ev-ingest --db kb.db --quiet "$CASEDIR/docs.jsonl"
ev-embed --db kb.db --train --dim 4 > /dev/null
printf '%s\n' '{"id":"a","text":"wing lift"}' '{"id":"b","title":"no text"}' '{"id":"c","text":"heat"}' |
	ev-embed --db kb.db > out.jsonl
status=$?
jq -r .id out.jsonl
exit $status
