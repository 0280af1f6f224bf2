# Hostile input: each a clear message naming the line, exit 2, never a crash.
t() { printf "$1" | ev-fuse; echo "status $?"; }
t "{\"query_id\":\"q1\",\"id\":\"a\",\"lane\":\"text\",\"rank\":1,\"sco"
t "\\377\\376garbage\\n"
t "{\"query_id\":\"q1\",\"id\":\"a\\0b\",\"lane\":\"text\",\"rank\":1,\"score\":1}\\n"
t "{\"query_id\":\"q\\303\\050\",\"id\":\"a\",\"lane\":\"text\",\"rank\":1,\"score\":1}\\n"
t "{\"query_id\":\"q1\",\"id\":\"a\",\"lane\":\"text\",\"rank\":1,\"score\":1e999}\\n"
t "{\"query_id\":\"q1\",\"id\":\"a\",\"lane\":\"text\",\"rank\":1e300,\"score\":1}\\n"
t "{\"query_id\":[1],\"id\":\"a\",\"lane\":\"text\",\"rank\":1,\"score\":1}\\n"
t "{\"query_id\":\"q1\",\"id\":7,\"lane\":\"text\",\"rank\":1,\"score\":1}\\n"
t "{\"query_id\":\"q1\",\"id\":\"a\",\"lane\":\"fused\",\"rank\":1,\"score\":1}\\n"
t "{\"query_id\":\"q1\",\"id\":\"a\",\"lane\":\"text\",\"rank\":1,\"score\":1,\"signals\":[]}\\n"
t "[1,2,3]\\n"
t "{\"query_id\":\"q1\",\"query\":5,\"id\":\"a\",\"lane\":\"text\",\"rank\":1,\"score\":1}\\n"
awk "BEGIN { for (i = 0; i < 5000; i++) printf \"[\"; print \"\" }" | ev-fuse; echo "status $?"
awk "BEGIN { printf \"{\\\"query_id\\\":\\\"q1\\\",\\\"id\\\":\\\"\"; for (i = 0; i < 200000; i++) printf \"x\"; print \"\\\",\\\"lane\\\":\\\"text\\\",\\\"rank\\\":1,\\\"score\\\":1}\" }" |
	ev-fuse --no-explain | jq -r ".id | length"
i=0; while [ $i -lt 17 ]; do echo "{\"query_id\":\"q\",\"id\":\"a\",\"lane\":\"l$i\",\"rank\":1,\"score\":1}"; i=$((i + 1)); done | ev-fuse >/dev/null; echo "status $?"
