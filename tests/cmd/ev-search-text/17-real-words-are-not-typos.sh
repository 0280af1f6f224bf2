# Typo repair never replaces a real word.  A store of English and French
# documents about bees (bees.jsonl).  "much" is in no document: it used to be
# "repaired" to the French "ruch" (ruche), ranking French chunks; it is an
# English word (the system's word list), so it is searched as it is and
# matches nothing.  A real typo is still repaired and shown in the evidence,
# its expansion weighing 0.9 of the word (1 - 0.1 x distance 1): "honney"
# scores 0.9 of "honey".  After the mead document (the one holding "yeast")
# is deleted, "yeast" finds nothing rather than "east".  Without word lists
# (EVKIT_DICT_DIR naming an empty directory) the old behaviour comes back,
# with a warning naming the packages to install: "yeast" is repaired to
# "east"; "much", in a query whose words are English, is not repaired to
# the French stem "ruch": a word is repaired to the stems of the languages
# it is searched in (it was, when the stems of every language met in one
# index: French chunks ranked for "much").  Typo repair in French and German:
# ev-search-text 25.
exec 2>&1
ev-ingest --db kb.db --quiet --source bees "$CASEDIR/bees.jsonl" || exit 1
echo '"how much honey does a colony need"' | ev-search-text --db kb.db |
	jq -c '[.doc_id, .evidence[0].matched_terms, .evidence[0].fuzzy]'
echo '--- a typo'
printf '"honey"\n"honney"\n' | ev-search-text --db kb.db --feedback 0 |
	jq -c '[.query, .doc_id, .score, .evidence[0].fuzzy]'
echo '--- yeast, after its document is deleted'
grep -v '"en-mead"' "$CASEDIR/bees.jsonl" >bees.jsonl
ev-ingest --db kb.db --quiet --prune --source bees bees.jsonl || exit 1
echo '"yeast"' | ev-search-text --db kb.db | jq -c '[.doc_id, .evidence[0].fuzzy]'
echo "hits: $(echo '"yeast"' | ev-search-text --db kb.db | wc -l)"
echo '--- without word lists'
mkdir nodict
echo '"how much yeast"' | EVKIT_DICT_DIR=nodict ev-search-text --db kb.db | jq -c '[.doc_id, .evidence[0].fuzzy]'
