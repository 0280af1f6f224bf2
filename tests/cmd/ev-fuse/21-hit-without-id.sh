# A hit without id: exit 2 naming the line.
printf "%s\n" "{\"query_id\":\"q1\",\"lane\":\"text\",\"rank\":1,\"score\":1}" | ev-fuse
