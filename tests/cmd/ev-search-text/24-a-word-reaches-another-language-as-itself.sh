# A query word reaches a chunk of another language only as the word itself,
# never through a stem two languages share.  A store of three notes: German,
# French and English.  "aus" is a German function word: the queries that
# hold it are German, and their words are stemmed in German alone; the
# French note is not found through the French word "au", which English's
# stem of "aus" is (it was, when every word was stemmed for every language
# of the store and the stems of all languages met in one index).  A word
# the languages write alike, "propolis", still finds every note: in the
# German one through its German stem, in the others as itself.  A query
# whose words show no language ("propolis" alone) is stemmed for each
# language of the store, each stem finding that language's notes alone.
. "$CASEDIR/mknotes"; mknotes notes
ev-ingest --db kb.db --quiet notes || exit 1
sqlite3 kb.db "SELECT doc_id, language FROM chunks ORDER BY doc_id"
for q in "Bienen aus Stock" "aus" "Propolis aus Stock" "propolis" "au"; do
	echo "--- $q"
	printf '"%s"\n' "$q" | ev-search-text --db kb.db | jq -r '[.doc_id, .language] | @tsv' | sort
done
echo '--- a query that says its language: German'
echo '{"query_id":"q","query":"aus","language":"de"}' | ev-search-text --db kb.db |
	jq -r '[.doc_id, .language] | @tsv'
