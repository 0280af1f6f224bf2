# Several files and "-" are read in turn (FILE:LINE in messages); --log
# appends one ToolRun line counting the items.
echo '{"query_id":"a","query":"flow","answer":"Flow.","citations":["flow"]}' >a.jsonl
echo '{"query_id":"b","query":"flow","answer":"Flow.","citations":[]}' >b.jsonl
echo '{"query_id":"c","query":"flow","answer":"Flow.","citations":["flow"]}' |
    ev-score --log run.log a.jsonl - b.jsonl 2>err | jq -c '{query_id, overall}'
cat err
ev-score --log run.log --min-overall 0.5 b.jsonl 2>/dev/null >/dev/null
jq -c '{tool, counts, exit}' run.log
