# Typo repair reaches the stems of every language the store holds, each
# within its own language: a query word missing from the index is repaired
# to the closest stems of the languages it is searched in (its own, or each
# of the store's when its words show none), never to another language's
# stem.  A store of German, French and English notes: "ruchess" is
# repaired to the French stem "ruch" (the word "ruche"), "Frühlinng" to the
# German "fruhling" (they found nothing when the stems of these languages
# were no candidates); a query in German is not repaired to the French
# "ruch".  A language without a stemmer (Polish) is indexed as its words
# themselves, and a typo is repaired to the closest of them ("nektarr" to
# "nektar"; nothing was found when the words themselves were no candidates),
# also in a process that repaired a stem first.
. "$CASEDIR/mknotes"; mknotes notes
cat >notes/miel.md <<'EOF2'
# Miel

Le miel de printemps est récolté quand les ruches sont pleines.
EOF2
ev-ingest --db kb.db --quiet notes || exit 1
sqlite3 kb.db "SELECT doc_id, language FROM chunks ORDER BY doc_id"
for q in ruchess "la ruchess" Frühlinng; do
	echo "--- $q"
	printf '"%s"\n' "$q" | ev-search-text --db kb.db | jq -c '[.doc_id, .evidence[0].fuzzy]' | sort
done
echo '--- a query in German: no French stem'
echo '{"query_id":"q","query":"ruchess","language":"de"}' | ev-search-text --db kb.db | wc -l
echo '--- a language without a stemmer: its words themselves'
ev-ingest --db pl.db --quiet <<'JSONL' || exit 1
{"id":"pszczoly","title":"Pszczoły","language":"pl","text":"Pszczoły zbierają nektar i pyłek z kwiatów przez całe lato."}
{"id":"miod","title":"Miód","language":"pl","text":"Pszczelarz odbiera miód z ula jesienią."}
JSONL
printf '"%s"\n' nektarr pszczelarzz | ev-search-text --db pl.db | jq -c '[.doc_id, .evidence[0].fuzzy]'
echo '--- one process: stems repaired first, then a word itself (from FTS5, then from the'
echo '--- postings file, whose words themselves are read when first looked for)'
ev-ingest --db mix.db --quiet <<'JSONL' || exit 1
{"id":"bees","title":"Bees","language":"en","text":"Bees gather nectar and pollen from flowers all summer."}
{"id":"pszczoly","title":"Pszczoły","language":"pl","text":"Pszczoły zbierają nektar i pyłek z kwiatów przez całe lato."}
JSONL
for pass in fts5 postings; do
	[ "$pass" = postings ] && { ev-ingest --db mix.db --postings || exit 1; }
	printf '%s\n' '{"query_id":"en","query":"pollen flowrs","language":"en"}' \
		'{"query_id":"pl","query":"nektarr","language":"pl"}' |
		ev-search-text --db mix.db | jq -c '[.query_id, .doc_id, .evidence[0].fuzzy]'
done
ls mix.db.postings
