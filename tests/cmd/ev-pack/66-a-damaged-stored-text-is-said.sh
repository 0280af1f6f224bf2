# A hit without its text, packed under snippet policy l2 with --db, takes
# its snippet from the chunk's stored text.  When the store is damaged (a
# text that is not UTF-8), ev-pack used to pack the hit all the same with
# an empty snippet under policy l1, exit 0, without a word; it now says
# which row is damaged and how to repair it, exit 1, as ev-show and
# ev-search-text do.
exec 2>&1
printf '%s\n' '{"id":"a","title":"T","text":"alpha beta gamma words here"}' \
	'{"id":"b","text":"alpha delta words"}' >docs.jsonl
ev-ingest --db kb.db --quiet docs.jsonl || exit 1
hit() { printf '{"query_id":"q","query":"alpha","id":"%s:_top:0","doc_id":"%s","rank":%s,"score":%s,"lane":"text"}\n' "$@"; }
{ hit b b 1 2; hit a a 2 1; } >hits.jsonl
ev-pack --db kb.db --snippet-policy l2 hits.jsonl | jq -c '.evidences[] | [.id, .snippet, .snippet_policy]'
sqlite3 kb.db "UPDATE chunks SET text = CAST(x'616c70686120ff42' AS TEXT) WHERE doc_id = 'a'" || exit 1
ev-pack --db kb.db --snippet-policy l2 hits.jsonl; echo "exit $?"
ev-show --db kb.db chunk:a:_top:0; echo "exit $?"
# without --db the hits' own texts are all it reads: nothing damaged
ev-pack --snippet-policy l2 hits.jsonl | jq -c '.evidences[] | [.id, .snippet_policy]'
