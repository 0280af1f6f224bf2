# Relevance must be an integer; five fields are too many; a pair judged twice
# with different relevance is refused.
for line in 'q1 d1 high' 'q1 d1 1.5' 'q1 0 d1 1 extra' 'q1 d1 99999999999999999999'; do
	printf '%s\n' "$line" >qrels
	ev-eval --qrels qrels </dev/null
	echo "status $?"
done 2>&1
printf '%s\n' 'q1 d1 1' 'q1 d1 1' 'q1 d1 2' >qrels
ev-eval --qrels qrels </dev/null 2>&1
echo "status $?"
