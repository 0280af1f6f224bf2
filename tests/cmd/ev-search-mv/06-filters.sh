# A query's filters, in the grammar of the other lanes (ev-search-text,
# ev-search-vec): the records whose doc_id names a document of the store
# (--db) that passes them are all scored exactly, so -k hits come back when
# that many pass, whatever --candidates.  A record without a doc_id passes
# no filter.  Filters without --db, and a bad filter, are refused (exit 2,
# naming file and line, nothing written for that query).  "language" passes
# a document that declares it or one of whose chunks is in it: "en" passes
# the documents that declare none, their chunks' words being English.
exec 2>&1
. "$CASEDIR/../ev-embed-load/mkstore"; mkstore kb.db 6
# (as ev-ingest does with a declared language, each chunk takes its document's)
sqlite3 kb.db "UPDATE documents SET language = 'de', source_type = 'pdf' WHERE doc_id = 'd2';
  UPDATE chunks SET language = 'de' WHERE doc_id = 'd2'"
{ cat "$CASEDIR/records.jsonl"; echo '{"id":"p9","vectors":[[5,5,5]],"model":"colpali-test"}'; } >records.jsonl
ev-mv-load --index pages.mvi records.jsonl 2>/dev/null
for f in '{"doc_id":"d2"}' '{"doc_ids":["d1","d2"]}' '{"metadata":{"topic":"odd"}}' \
    '{"published_date":{"from":"2024-01-02"}}' '{"language":"de"}' '{"source_type":["pdf","html"]}' \
    '{"language":"en"}' '{"doc_id":"d9"}'; do
	echo "{\"query_id\":\"q\",\"vectors\":[[0,0,1],[1,0,0]],\"filters\":$f}" >q.jsonl
	ev-search-mv --db kb.db --index pages.mvi -k 2 --candidates 1 q.jsonl >hits.jsonl
	echo "$f: exit $?"
	jq -c '[.rank, .id, .doc_id, .score]' hits.jsonl
done
# unfiltered, p9 (no doc_id) is first; with filters, never
echo '{"vectors":[[1,1,1]]}' | ev-search-mv --index pages.mvi -k 1 | jq -c '[.id, .score]'
printf '%s\n' '{"vectors":[[1,1,1]]}' '{"vectors":[[1,1,1]],"filters":{"author":"x"}}' >bad.jsonl
ev-search-mv --db kb.db --index pages.mvi -k 1 bad.jsonl >hits.jsonl; echo "exit $?"
jq -c '[.id]' hits.jsonl
printf '%s\n' '{"vectors":[[1,1,1]],"filters":{"doc_id":[]}}' >bad.jsonl
ev-search-mv --db kb.db --index pages.mvi bad.jsonl; echo "exit $?"
printf '%s\n' '{"vectors":[[1,1,1]]}' '{"vectors":[[1,1,1]],"filters":{"doc_id":"d1"}}' >nodb.jsonl
ev-search-mv --index pages.mvi -k 1 nodb.jsonl >hits.jsonl; echo "exit $?"
jq -c '[.id]' hits.jsonl
