# rank is a whole number from 1: 0, -1 and 1.5 are refused.
printf "%s\n" "q1 d1 1" "q1 d2 1" >qrels
for r in 0 -1 1.5 1e999; do
	echo "{\"query_id\":\"q1\",\"doc_id\":\"d1\",\"rank\":$r}" | ev-eval --qrels qrels
	echo "status $?"
done 2>&1
