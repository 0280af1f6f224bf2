# Standard input can be read once.  With --qrels -, the run must come from
# files: without a RUN, or with a RUN '-', the run would read an input the
# qrels had used up and score every query 0 with exit 0; it is bad usage
# (exit 2).  A qrels file on standard input and the run from a file work.
exec 2>&1
printf '%s\n' '{"query_id":"q1","doc_id":"d1","rank":1}' >run.jsonl
printf '%s\n' 'q1 d1 1' >qrels
ev-eval --qrels - <qrels; echo "exit $?"
ev-eval --qrels - run.jsonl - <qrels; echo "exit $?"
ev-eval --qrels - run.jsonl <qrels; echo "exit $?"
ev-eval --qrels qrels - <run.jsonl; echo "exit $?"
