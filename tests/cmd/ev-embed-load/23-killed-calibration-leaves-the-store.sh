# A load killed while it calibrates (MED: 1,033 abstracts, 1,000
# pseudo-queries take tens of seconds; killed after 3) leaves the store's
# calibration as it was, and the store and index usable; the same load run
# to its end then writes its row.  Skipped without the shared test data.
. "$SKIPLIB"
d=$SHARED/data/med
need_file "$d/corpus.jsonl" "the MED collection"
ev-ingest --db med.db "$d/corpus.jsonl" >chunks.jsonl 2>/dev/null
ev-embed --db med.db --train >/dev/null 2>&1
ev-embed --db med.db <chunks.jsonl 2>/dev/null | ev-embed-load --db med.db --index med.faiss 2>/dev/null
row() { sqlite3 med.db "SELECT value FROM meta WHERE key = 'fusion.calibration'"; }
sqlite3 med.db "INSERT INTO meta VALUES ('fusion.calibration', '{\"version\":1,\"weights\":{\"text\":1}}')"
cp med.faiss before.faiss
ev-embed-load --db med.db --index med.faiss --calibrate 1000 </dev/null 2>err &
pid=$!
sleep 3
kill -9 $pid
wait $pid 2>/dev/null
echo "killed: $(row)"
cmp -s med.faiss before.faiss && echo "index: as it was" || echo "index: changed"
echo "integrity: $(sqlite3 med.db 'PRAGMA integrity_check')"
echo '{"query_id":"1","query":"cystic fibrosis"}' | ev-embed --db med.db --role query |
	ev-search-vec --db med.db --index med.faiss -k 3 | wc -l | sed 's/^/vector hits: /'
ev-embed-load --db med.db --index med.faiss --calibrate 50 </dev/null 2>/dev/null
row | jq -c '{version, queries}'
