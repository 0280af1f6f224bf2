# A routed record's "lanes" must be a list of lane names: "lanes" that is
# not a list was said to be missing ("query without 'lanes'"), and a name no
# lane can have ("", "Text") was taken and matched no lane's hits, silently.
# Both are bad input, exit 2, naming the line and the rule of lane names.
exec 2>&1
printf '%s\n' '{"query_id":1,"id":"t1","rank":1,"score":2}' >text.jsonl
for lanes in '"text"' '["text",""]' '["Text"]' '{"text":1}'; do
	printf '%s\n' "{\"query_id\":1,\"query\":\"a\",\"lanes\":$lanes,\"routing\":{\"by\":\"default\"}}" |
		ev-route --hits text=text.jsonl
	echo "exit $?"
done
echo "-- a record without lanes:"
printf '%s\n' '{"query_id":1,"query":"a","lanes":null}' | ev-route --hits text=text.jsonl
echo "exit $?"
