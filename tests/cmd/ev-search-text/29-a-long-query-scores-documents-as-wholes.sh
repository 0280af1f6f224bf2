# A query read as a document (more than --long-query searched words) scores
# each hit with its document's BM25 as a whole beside its chunk's, with the
# share 1 - the store's documents / its chunks (7 documents, 11 chunks here):
# the article's chunks, each holding the query's words, rank together above
# the note, and each hit keeps its chunk's rank (fts_rank) and gets its
# document's score (doc_score).  A shorter query keeps its chunks' scores;
# --document-weight sets the share for every query (0: chunks alone).
# k1 is fixed at 1.1: with this little store's own (0.25 x ln 23.3, 0.79: its
# chunks average 23.3 tokens) the article's repeats count less, and the note
# ranks among its chunks.
{
	printf '{"id":"article","text":"'
	for i in 1 2 3 4 5 6; do
		printf 'The glacier carved the valley and left a moraine of boulders and gravel. '
		printf 'Meltwater from the glacier feeds the lake below the moraine in summer. '
		printf 'Walkers cross the ridge above it to see the ice. '
	done
	printf '"}\n'
	printf '%s\n' '{"id":"note","text":"glacier moraine meltwater lake ridge: notes"}'
	for w in bread boats roses trains clocks; do
		printf '{"id":"%s","text":"a short text about %s and nothing else"}\n' "$w" "$w"
	done
} > docs.jsonl
ev-ingest --db kb.db --quiet --size 300 --overlap 0 docs.jsonl || exit 1
sqlite3 kb.db "SELECT count(*), count(DISTINCT doc_id) FROM chunks"
q='glacier moraine meltwater lake ridge'
for opts in '' '--long-query 4' '--long-query 4 --document-weight 0' '--document-weight 1'; do
	echo "--- ${opts:-defaults}"
	printf '{"query_id":"q","query":"%s"}\n' "$q" |
		ev-search-text --db kb.db --feedback 0 --k1 1.1 $opts |
		jq -r '[.rank, .doc_id, .signals.fts_rank, (.signals.doc_score != null)] | @tsv' | head -4
done
