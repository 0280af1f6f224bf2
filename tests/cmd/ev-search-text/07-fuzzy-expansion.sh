# A word missing from the index is expanded to the closest word of the index
# (edit distance 1 for 4-5 letters, 2 beyond); the evidence says so, with the
# indexed word searched for and whether the word as typed or its stem found it.  A word
# in the index is not expanded; --fuzzy 0 turns expansion off.
exec 2>&1
. "$CASEDIR/mkstore"; mkstore kb.db
printf '%s\n' '"slipstraem"' '"visocsity"' '"hypresonic"' '"wnig"' '"jet"' |
	ev-search-text --db kb.db -k 1 | jq -c '[.query_id, .doc_id, .evidence[0].matched_terms, .evidence[0].fuzzy, .snippet]'
echo '"plates"' | ev-search-text --db kb.db -k 1 | jq -c '.evidence[0] | has("fuzzy")'
echo '"slipstraem"' | ev-search-text --db kb.db --fuzzy 0 | wc -l
