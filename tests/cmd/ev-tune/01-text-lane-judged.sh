# The text lane alone (no --index) tuned on the samples' twelve queries,
# judged by hand in samples.qrels, from samples/plan.yaml: the plan written
# keeps the input plan's keys, its header and the summary say what was
# searched and the cross-validated figure beside the defaults' (the time taken,
# the last line of the summary, varies and is left out).
. "$CASEDIR/mkstore"; mkstore
cp "$CASEDIR/samples.qrels" .
ev-tune --db kb.db --qrels samples.qrels --plan "$SAMPLES/plan.yaml" --folds 3 \
	"$SAMPLES/queries.jsonl" 2>err
echo "status $?"
grep -v '^ev-tune: searched for' err
# The defaults' figure is the text lane's, as ev-eval judges ev-search-text.
text=$(ev-search-text --db kb.db "$SAMPLES/queries.jsonl" |
	ev-eval --qrels "$CASEDIR/samples.qrels" | sed 's/.*"ndcg@10":\([0-9.]*\).*/\1/')
grep -q "against $text for the defaults" err && echo "the defaults' figure is ev-search-text's"
