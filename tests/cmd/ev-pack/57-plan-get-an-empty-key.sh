# --plan-get with an empty key in its list (two commas together, one at
# either end, or '') is bad usage (exit 2), naming the option, and nothing
# is printed: the empty key printed the whole plan as its value.
exec 2>&1
for keys in 'fusion.method,,k' 'k,' ''; do
	ev-pack --plan "$SAMPLES/plan.yaml" --plan-get "$keys"
	echo "exit $?"
done
ev-pack --plan "$SAMPLES/plan.yaml" --plan-get 'fusion.method,k'
