# Bad hits: each a message naming the line, exit 2.
t() { printf "%s\n" "$1" | ev-pack; echo "status $?"; }
t "{\"id\":\"a\",\"score\":1}"
t "{\"query_id\":\"q\",\"id\":\"a\",\"score\":1,\"rank\":\"one\"}"
t "{\"query_id\":\"q\",\"id\":\"a\",\"score\":1,\"rank\":-4}"
t "{\"query_id\":\"q\",\"id\":\"a\",\"score\":\"1\"}"
t "{\"query_id\":\"q\",\"id\":\"\",\"score\":1}"
t "{\"query_id\":\"q\",\"id\":\"a\",\"score\":1,\"signals\":7}"
t "{\"query_id\":\"q\",\"id\":\"a\",\"score\":1e400}"
t "{\"query_id\":\"q\",\"id\":\"a\",\"sc"
t "\"just a string\""
printf "\\0\\377\\n" | ev-pack; echo "status $?"
awk "BEGIN { for (i = 0; i < 5000; i++) printf \"{\\\"a\\\":\"; print \"\" }" | ev-pack; echo "status $?"
