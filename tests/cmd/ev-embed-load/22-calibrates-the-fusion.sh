# With --calibrate N the load calibrates the fusion on known-item
# pseudo-queries of the store's own documents (a real store of samples/,
# its own embedder) and keeps the choice in the store's meta table; a load
# run again chooses the same (the row is byte for byte the same); without
# --calibrate (the default) the row is left alone; a store of too few
# documents is not calibrated.
(cd "$SAMPLES/.." && ev-ingest --db "$OLDPWD/kb.db" samples) >chunks.jsonl 2>/dev/null
ev-embed --db kb.db --train >/dev/null 2>&1
row() { sqlite3 kb.db "SELECT value FROM meta WHERE key = 'fusion.calibration'"; }
ev-embed --db kb.db <chunks.jsonl 2>/dev/null | ev-embed-load --db kb.db --index kb.faiss 2>err
echo "by default: $(row | wc -l) row; said: $(grep -c 'fusion calibrated' err)"
ev-embed-load --db kb.db --index kb.faiss --calibrate 200 </dev/null 2>err
echo "said: $(grep -c 'fusion calibrated on' err) line"
row >first
jq -c '{version, seed, queries, weights, adapt, method}' first
model=$(sqlite3 kb.db "SELECT value FROM meta WHERE key = 'vindex.model'")
jq -r --arg m "$model" '"its model is the index'"'"'s: " + (.model == $m | tostring)' first
ev-embed-load --db kb.db --index kb.faiss --calibrate 200 </dev/null 2>/dev/null
row | cmp -s - first && echo "again: the same row" || echo "again: another row"
sqlite3 kb.db "UPDATE meta SET value = '{\"version\":1,\"weights\":{\"text\":1}}' WHERE key = 'fusion.calibration'"
ev-embed-load --db kb.db --index kb.faiss </dev/null 2>err
echo "without --calibrate: $(row); said: $(grep -c 'fusion calibrated' err)"
# five documents: too few to calibrate on
printf '{"id":"d%s","text":"Flutter of wing %s at speed %s."}\n' 1 1 1 2 2 2 3 3 3 4 4 4 5 5 5 >five.jsonl
ev-ingest --db five.db five.jsonl >five-chunks.jsonl 2>/dev/null
ev-embed --db five.db --train --dim 4 --min-df 1 >/dev/null 2>&1
ev-embed --db five.db <five-chunks.jsonl 2>/dev/null |
	ev-embed-load --db five.db --index five.faiss --calibrate 200 2>err
echo "five documents: $(sqlite3 five.db "SELECT count(*) FROM meta WHERE key = 'fusion.calibration'") row; said: $(grep -c 'fusion calibrated' err)"
