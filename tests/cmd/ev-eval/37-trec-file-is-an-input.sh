# --trec naming one of the inputs (a RUN file, the qrels, or the file on
# standard input) is bad usage, exit 2, and the input is left as it was.
# (The run was read, then overwritten with its TREC form: a typo such as
# --trec text.jsonl text.jsonl lost the run.)
exec 2>&1
printf '%s\n' '{"query_id":"q1","doc_id":"d1","rank":1}' '{"query_id":"q1","doc_id":"d2","rank":2}' >run.jsonl
printf '%s\n' 'q1 d1 1' 'q1 d2 2' >qrels
cp run.jsonl kept.jsonl
cp qrels kept.qrels
ev-eval --qrels qrels --trec run.jsonl run.jsonl; echo "exit $?"
ev-eval --qrels qrels --trec ./qrels run.jsonl; echo "exit $?"
ev-eval --qrels qrels --trec run.jsonl <run.jsonl; echo "exit $?"
cmp run.jsonl kept.jsonl && cmp qrels kept.qrels && echo "inputs unchanged"
ev-eval --qrels qrels --trec run.trec run.jsonl; echo "exit $?"
ev-eval --qrels qrels --trec run.trec run.jsonl >/dev/null; echo "exit $? (run.trec written again)"
cat run.trec
