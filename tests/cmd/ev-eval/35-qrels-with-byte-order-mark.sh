# A qrels file saved with a UTF-8 byte order mark (as Windows editors save
# it) judges the same queries as without one: the mark is not part of the
# first query's id, which would leave that query unmatched and averaged in
# twice, once as a query without hits.
printf '%s\n' '{"query_id":"q1","doc_id":"d1","rank":1}' '{"query_id":"q1","doc_id":"d2","rank":2}' >run.jsonl
printf '%s\r\n' 'q1 0 d1 1' 'q1 0 d2 2' >plain
printf '\357\273\277' | cat - plain >marked
ev-eval --qrels plain run.jsonl
ev-eval --qrels marked run.jsonl
ev-eval --qrels - run.jsonl <marked
