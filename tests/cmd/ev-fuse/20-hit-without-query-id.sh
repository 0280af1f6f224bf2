# A hit without query_id: exit 2 naming FILE:LINE; the queries before it are written.
printf "%s\n" "{\"query_id\":\"q1\",\"id\":\"a\",\"lane\":\"text\",\"rank\":1,\"score\":1}" \
	"{\"query_id\":\"q2\",\"id\":\"b\",\"lane\":\"text\",\"rank\":1,\"score\":1}" \
	"{\"id\":\"c\",\"lane\":\"text\",\"rank\":2,\"score\":1}" >hits.jsonl
ev-fuse --no-explain hits.jsonl >out
status=$?
jq -c "[.query_id,.id]" out
exit $status
