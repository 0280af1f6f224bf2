# --log writes every argument of the run, one that is not UTF-8 too (a
# file's name), its bytes that are not UTF-8 as U+FFFD, as evkit writes such
# bytes anywhere in JSON: Jansson refused the string and the argument was
# left out of the ToolRun line without a word.
exec 2>&1
name=$(printf 'hits-\377\376.jsonl')
printf '%s\n' '{"query_id":"q1","id":"c1","doc_id":"d1","rank":1,"score":1,"lane":"text"}' >"$name"
ev-fuse --log run.log "$name" >/dev/null
echo "exit $?"
jq -c '.arguments' run.log
jq -r '.arguments[2]' run.log | od -An -c | tr -s ' '
