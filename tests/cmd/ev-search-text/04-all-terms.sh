# OR by default; --all-terms requires every word.
exec 2>&1
. "$CASEDIR/mkstore"; mkstore kb.db
echo '"flat plate wing"' | ev-search-text --db kb.db | jq -r .doc_id | tr '\n' ' '; echo
echo '"flat plate wing"' | ev-search-text --db kb.db --all-terms | jq -r .doc_id | tr '\n' ' '; echo
echo '"flat plate wing zeppelin"' | ev-search-text --db kb.db --all-terms | wc -l
