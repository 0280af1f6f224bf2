# Feedback terms are never function words of the chunk's language: the
# French chunks fed back "le", "et", "une", "La", "est" ... as feedback
# terms (the English stop list does not know them).  The language is the
# one the document declares ("language": "fr"), else the one its function
# words show (the same store without the declarations gives the same terms).
# English chunks keep the English stop list only (two of them: English
# "colony" no longer meets French "colonie", each stemmed for its language).
exec 2>&1
ev-ingest --db kb.db --quiet "$CASEDIR/bees.jsonl" || exit 1
echo '"ruche colonie"' | ev-search-text --db kb.db --feedback 3 | jq -c '[.doc_id, .evidence[0].feedback_terms]'
echo '--- undeclared'
sed 's/"language":"[a-z]*",//' "$CASEDIR/bees.jsonl" >nolang.jsonl
ev-ingest --db nolang.db --quiet nolang.jsonl || exit 1
echo '"ruche colonie"' | ev-search-text --db nolang.db --feedback 3 | jq -c '[.doc_id, .evidence[0].feedback_terms]'
echo '--- English'
echo '"honey colony"' | ev-search-text --db kb.db --feedback 2 | jq -c '[.doc_id, .evidence[0].feedback_terms]'
