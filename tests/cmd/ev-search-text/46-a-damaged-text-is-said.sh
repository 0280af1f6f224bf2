# A store damaged by hand or by a disk may hold a text that is not UTF-8,
# which JSON cannot carry: ev-search-text, ev-show and ev-embed --pending
# said "out of memory" of such a chunk or document.  Each now says which
# row of the store is damaged, and how to repair it, exit 1 (a runtime
# failure, as a corrupt store is).
exec 2>&1
printf '%s\n' '{"id":"a","title":"T","text":"alpha beta gamma words here"}' \
	'{"id":"b","text":"alpha delta words"}' >docs.jsonl
ev-ingest --db kb.db --quiet docs.jsonl && ev-embed --db kb.db --train --dim 2 >/dev/null 2>&1 || exit 1
sqlite3 kb.db "UPDATE chunks SET title = CAST(x'41ff42' AS TEXT) WHERE doc_id = 'a';
    UPDATE documents SET title = CAST(x'41ff42' AS TEXT) WHERE doc_id = 'b'" || exit 1
echo '"alpha"' | ev-search-text --db kb.db; echo "exit $?"
ev-embed --db kb.db --pending; echo "exit $?"
ev-show --db kb.db chunk:a:_top:0; echo "exit $?"
ev-show --db kb.db b; echo "exit $?"
sqlite3 kb.db "UPDATE chunks SET title = 'T', text = CAST(x'41ff42' AS TEXT) WHERE doc_id = 'a'" || exit 1
ev-show --db kb.db doc:a; echo "exit $?"
echo '"alpha"' | ev-search-text --db kb.db; echo "exit $?"
