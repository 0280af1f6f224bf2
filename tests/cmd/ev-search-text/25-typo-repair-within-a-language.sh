# Typo repair reaches the stems of every language the store holds, each
# within its own language: a query word missing from the index is repaired
# to the closest stems of the languages it is searched in (its own, or each
# of the store's when its words show none), never to another language's
# stem.  A store of French and German notes: "ruchess" is repaired to the
# French stem "ruch" (the word "ruche"), "Frühlinng" to the German
# "fruhling" (they found nothing when the stems of these languages were no
# candidates); a query in German is not repaired to the French "ruch".
mkdir notes
cat >notes/bienen.md <<'EOF2'
# Bienen

Die Bienen fliegen im Frühling aus dem Stock. Die Propolis schützt den Stock vor Keimen.
EOF2
cat >notes/abeilles.md <<'EOF2'
# Abeilles

Les abeilles vont au champ dès le printemps. La propolis protège la ruche des germes.
EOF2
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
