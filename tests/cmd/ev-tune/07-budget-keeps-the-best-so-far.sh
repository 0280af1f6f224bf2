# --budget stops the search when the time is up, keeping what was judged:
# the defaults are always judged, so a budget too short for anything else
# gives back the defaults, and the summary says the budget ran out and that
# the plan is the defaults.
. "$CASEDIR/mkstore"; mkstore
cp "$CASEDIR/samples.qrels" .
ev-tune --db kb.db --qrels samples.qrels --budget 0.001 "$SAMPLES/queries.jsonl" >plan.yaml 2>err
echo "status $?"
grep 'configurations searched' err
grep 'was the choice of' err
grep 'cross-validated' err | sed 's/ (.*//'
sed -n '/^  text:/,/^    fuzzy/p' plan.yaml
