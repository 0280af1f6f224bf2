# --trec cannot write an id that holds white space (a file's id such as
# 'docs/My Notes.md'): TREC's fields are separated by it, and other tools
# would read seven fields.  Such a run is refused (exit 2) naming the id,
# and no file is made or changed.  (The malformed lines were written, exit
# 0.)  Without --trec the run is evaluated as before.
exec 2>&1
printf '%s\n' '{"query_id":"q1","doc_id":"docs/My Notes.md","rank":1}' '{"query_id":"q1","doc_id":"d2","rank":2}' >run.jsonl
printf '%s\n' 'q1 d1 1' 'q1 d2 1' >qrels
ev-eval --qrels qrels --trec run.trec run.jsonl; echo "exit $?"
[ -e run.trec ] || echo "no run.trec"
echo kept >old.trec
printf '%s\n' '{"query_id":"q 2","doc_id":"d2","rank":1}' | ev-eval --qrels qrels --trec old.trec; echo "exit $?"
cat old.trec
ev-eval --qrels qrels run.jsonl; echo "exit $?"
