# The hand-checkable example of man/ev-eval.1 gives the output the page shows.
printf '%s\n' 'q1 d1 1' 'q1 d2 1' >qrels
echo '{"query_id":"q1","doc_id":"d9","rank":1}
{"query_id":"q1","doc_id":"d2","rank":2}' | ev-eval --qrels qrels -k 2 >out
cat out
grep -qxF "$(cat out)" "$CASEDIR/../../../man/ev-eval.1" && echo "as in the man page"
