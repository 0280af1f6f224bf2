# Deep nesting is refused (exit 2), not a crash; a 4 MB line is read as usual.
printf '%s\n' 'q1 d1 1' 'q1 d2 1' >qrels
awk 'BEGIN { for (i = 0; i < 100000; i++) printf "["; print "" }' | ev-eval --qrels qrels 2>&1
echo "status $?"
awk 'BEGIN { printf "{\"query_id\":\"q1\",\"doc_id\":\"d1\",\"rank\":1,\"snippet\":\"";
	for (i = 0; i < 65536; i++) printf "abcdefghijklmnopqrstuvwxyz0123456789abcdefghijklmnopqrstuvwxyz01";
	print "\"}" }' | ev-eval --qrels qrels
echo "status $?"
