# A rank that is not a number, or below 1: exit 2 naming the line.
printf "%s\n" "{\"query_id\":\"q1\",\"id\":\"a\",\"lane\":\"text\",\"rank\":\"first\",\"score\":1}" | ev-fuse
echo "status $?"
printf "%s\n" "{\"query_id\":\"q1\",\"id\":\"a\",\"lane\":\"text\",\"rank\":0,\"score\":1}" | ev-fuse
echo "status $?"
printf "%s\n" "{\"query_id\":\"q1\",\"id\":\"a\",\"lane\":\"text\",\"rank\":1,\"score\":\"high\"}" | ev-fuse
echo "status $?"
