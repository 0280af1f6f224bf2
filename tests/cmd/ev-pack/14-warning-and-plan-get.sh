# --warning TEXT goes into every pack's warnings; --plan-get KEY prints a
# plan's value once the plan is checked (nothing when absent), for scripts.
L=$CASEDIR/../ev-fuse
ev-fuse "$L/text.jsonl" "$L/vector.jsonl" |
	ev-pack --warning "vector lane unavailable" --warning "second note" | jq -c '[.query_id, .warnings]'
ev-pack --warning "" </dev/null 2>&1; echo "status $?"
ev-pack --plan "$SAMPLES/plan.yaml" --plan-get lanes.text.k
ev-pack --plan "$SAMPLES/plan.yaml" --plan-get fusion.method
ev-pack --plan "$SAMPLES/plan.yaml" --plan-get fusion.weights
ev-pack --plan "$SAMPLES/plan.yaml" --plan-get no.such.key; echo "status $?"
ev-pack --plan-get k 2>&1; echo "status $?"
printf 'lanes:\n  vector:\n    k: many\n' >bad.yaml
ev-pack --plan bad.yaml --plan-get lanes.vector.k 2>&1; echo "status $?"
