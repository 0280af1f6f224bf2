# A document's stored metadata that is not a JSON object, in a store
# damaged by hand, was shown as {} without a word, for the document and for
# each of its chunks.  It is now named on stderr, with the document, and
# the record shown without it (exit 0); a document without metadata (NULL)
# is none of this.
printf '%s\n' '{"id":"m","text":"alpha words","metadata":{"team":"ops"}}' >m.jsonl
ev-ingest --db kb.db --quiet m.jsonl || exit 1
sqlite3 kb.db "UPDATE documents SET metadata = 'not json'" || exit 1
ev-show --db kb.db m chunk:m:_top:0 2>err.txt >out.jsonl
echo "exit $?"
jq -c '[.kind, .metadata]' out.jsonl
cat err.txt
sqlite3 kb.db "UPDATE documents SET metadata = NULL" || exit 1
ev-show --db kb.db doc:m 2>&1 | jq -c .metadata
