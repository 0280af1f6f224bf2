# --trec - cannot write the TREC run to standard output, which holds the
# summary line (and the --per-query lines): it is bad usage (exit 2), said
# before the run is read.  It made a file named '-' in the current directory.
exec 2>&1
printf '%s\n' '{"query_id":"q1","doc_id":"d1","rank":1}' >run.jsonl
printf '%s\n' 'q1 d1 1' >qrels
ev-eval --qrels qrels --trec - run.jsonl; echo "exit $?"
ev-eval --qrels qrels --trec=- --per-query <run.jsonl; echo "exit $?"
ls
