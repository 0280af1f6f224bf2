# The filter "language" passes a chunk whose document declares that
# language or whose own language it is: notes ingested as files declare
# none, and each is found by the language its words showed (the hit's
# "language").  A document that declares "en-GB" is found by "en-GB" in
# any case, and by "en", its chunk's language; a code is read in any of its
# forms ("EN", "deu"), and one with a region finds only what declares it.
. "$CASEDIR/mknotes"; mknotes notes
ev-ingest --db kb.db --quiet notes || exit 1
echo '{"id":"gb","text":"Propolis is gathered by the bees from buds.","language":"en-GB"}' |
	ev-ingest --db kb.db --quiet - || exit 1
for f in '"en"' '"de"' '["fr","de"]' '"en-GB"' '"en-gb"' '"EN"' '"deu"' '"de-AT"' '"it"'; do
	echo "--- $f"
	printf '{"query_id":"q","query":"propolis","filters":{"language":%s}}\n' "$f" |
		ev-search-text --db kb.db | jq -r '[.doc_id, .language] | @tsv' | sort
done
