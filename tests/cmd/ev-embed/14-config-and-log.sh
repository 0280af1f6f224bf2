# Defaults from --config (flags override), unknown keys warned; --log writes
# a ToolRun line.
exec 2>&1
ev-ingest --db kb.db --quiet "$CASEDIR/docs.jsonl"
printf 'db: kb.db\nembed:\n  dim: 3\n  colour: blue\n' > c.yaml
ev-embed --config c.yaml --train | jq -c '{dim}'
ev-embed --config c.yaml --train --dim 2 | jq -c '{dim}'
printf 'embed:\n  query_tf: cubic\n' > bad.yaml
ev-embed --db kb.db --config bad.yaml < /dev/null; echo "exit $?"
printf '"wing"\n"heat"\n' | ev-embed --db kb.db --log run.log > /dev/null
jq -c '{tool, counts}' run.log
