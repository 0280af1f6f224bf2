# Standard input can be read once: --hits LANE=- or --gate-hits - with the
# query records on standard input (no QUERIES, or QUERIES '-'), or '-' named
# by two of them, is bad usage (exit 2) naming both.  The hits' reader took
# standard input first, and the queries read what it left (none: no output,
# exit 0) or read hits as queries.  One of them on standard input works.
exec 2>&1
printf '%s\n' '{"query_id":1,"query":"a","lanes":["vector"]}' \
	'{"query_id":2,"query":"b","lanes":["text","vector"]}' >routed.jsonl
printf '%s\n' '{"query_id":2,"id":"t2","rank":1,"score":1.5,"lane":"text"}' >text.jsonl
printf '%s\n' '{"query_id":"q1","query":"a"}' >q.jsonl
cat text.jsonl routed.jsonl | ev-route --hits text=-; echo "exit $?"
ev-route --hits text=- - <text.jsonl; echo "exit $?"
ev-route --hits text=- --hits '!vector=-' routed.jsonl <text.jsonl; echo "exit $?"
ev-route --config "$CASEDIR/plan.yaml" --gate-hits - <q.jsonl; echo "exit $?"
ev-route --config "$CASEDIR/plan.yaml" --gate-hits text=- q.jsonl - <q.jsonl; echo "exit $?"
echo "-- one reader of standard input:"
ev-route --hits text=- routed.jsonl <text.jsonl; echo "exit $?"
ev-route --hits text=text.jsonl <routed.jsonl; echo "exit $?"
ev-route --config "$CASEDIR/plan.yaml" --gate-hits - q.jsonl <text.jsonl | jq -c .lanes; echo "exit $?"
