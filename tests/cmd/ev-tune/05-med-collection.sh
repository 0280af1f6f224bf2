# On a real collection (MED: 1,033 abstracts, 30 judged queries; from the
# shared test data, skipped when it is absent): ev-tune's figure for the
# defaults of the text lane is ev-search-text's as ev-eval judges it, and
# the search covers the whole grid.  Skipped (counted so) without the data.
. "$SKIPLIB"
d=$SHARED/data/med
need_file "$d/corpus.jsonl" "the MED collection"
ev-ingest --db med.db "$d/corpus.jsonl" >/dev/null 2>&1
ev-tune --db med.db --qrels "$d/qrels.tsv" --binary "$d/queries.jsonl" >plan.yaml 2>err
tune=$(sed -n 's/.*against \([0-9.]*\) for the defaults.*/\1/p' err)
text=$(ev-search-text --db med.db "$d/queries.jsonl" |
	ev-eval --qrels "$d/qrels.tsv" --binary | sed 's/.*"ndcg@10":\([0-9.]*\).*/\1/')
[ -n "$tune" ] && [ "$tune" = "$text" ] && echo "the defaults' figure is ev-search-text's" ||
	echo "ev-tune says '$tune' for the defaults, ev-search-text gets '$text'"
sed -n 's/^ev-tune: //p' err | grep configurations
