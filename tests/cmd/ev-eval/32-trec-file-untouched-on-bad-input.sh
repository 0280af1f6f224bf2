# Bad input: the --trec file is neither created nor changed.
printf '%s\n' 'q1 d1 1' >qrels
echo 'old contents' >kept.trec
printf '%s\n' '{"query_id":"q1","doc_id":"d1","rank":1}' '{"query_id":"q1","rank":2}' >run
ev-eval --qrels qrels --trec kept.trec run 2>/dev/null; echo "status $?"
ev-eval --qrels qrels --trec new.trec run 2>/dev/null; echo "status $?"
cat kept.trec
ls new.trec 2>&1 | sed 's/:.*/: absent/'
