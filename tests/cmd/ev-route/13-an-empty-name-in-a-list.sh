# A list of lanes with an empty name in it (two commas together, or one at
# either end) is bad usage (exit 2), naming the option: --known text,,vector
# and --default text, were read as if the empty name were not there.
exec 2>&1
echo '"q"' >q.jsonl
for args in "--known text,,vector" "--default text," "--default ,text" "--known ''"; do
	eval "ev-route $args q.jsonl"
	echo "exit $?"
done
echo "-- without the empty name:"
ev-route --known text,vector --default text q.jsonl
