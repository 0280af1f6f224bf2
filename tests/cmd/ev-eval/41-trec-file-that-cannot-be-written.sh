# A --trec FILE that cannot be written (a directory, a missing directory)
# is bad usage said before the run is read (exit 2, "nothing was run"): it
# was found only once the whole run was read, and reported as a runtime
# failure (exit 1).
exec 2>&1
printf '%s\n' '{"query_id":"q1","doc_id":"d1","rank":1}' >run.jsonl
printf '%s\n' 'q1 d1 1' >qrels
mkdir runs
ev-eval --qrels qrels --trec runs run.jsonl; echo "exit $?"
ev-eval --qrels qrels --trec missing/run.trec run.jsonl; echo "exit $?"
ev-eval --qrels qrels --trec runs/run.trec run.jsonl >/dev/null; echo "exit $?"
cat runs/run.trec
