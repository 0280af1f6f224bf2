# Absurd options and bad plans: exit 2 with a message.
for args in "-k -1" "-k x" "--min-score nan" "--by-document -2" "--overlap 1.5" \
	"--max-snippet-chars 0" "--format xml" "--plan no-such.yaml" "--frobnicate"; do
	ev-pack $args </dev/null
	echo "status $?"
done 2>&1
printf "k: many\n" >bad.yaml
ev-pack --plan bad.yaml </dev/null 2>&1; echo "status $?"
printf "k: [1\n" >broken.yaml
ev-pack --plan broken.yaml </dev/null 2>&1; echo "status $?"
# --queries - reads standard input: the hits cannot come from it too (the
# queries' reader took every line, hits and all)
printf '%s\n' '{"query_id":"q1","query":"x"}' '{"query_id":"q1","query":"x","id":"a","score":1}' >both.jsonl
ev-pack --queries - <both.jsonl 2>&1; echo "status $?"
ev-pack --queries - - <both.jsonl 2>&1; echo "status $?"
