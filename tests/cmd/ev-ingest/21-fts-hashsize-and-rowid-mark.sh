# A store ev-ingest creates lets FTS5 gather 8 MB of new terms before it
# writes a segment (hashsize).  The chunk rowid high-water mark is written to
# meta once a batch, in the batch's transaction: a run killed after its first
# commit has the mark of that batch, and the re-run goes on from it.
for i in 1 2 3 4 5; do
	printf '{"id": "d%d", "text": "Text number %d."}\n' $i $i
done > docs.jsonl
ev-ingest --db kb.db --quiet --batch 2 docs.jsonl
sqlite3 kb.db "SELECT v FROM chunks_fts_config WHERE k = 'hashsize'"
sqlite3 kb.db "SELECT value FROM meta WHERE key = 'chunks.rowid_max'; SELECT max(rowid) FROM chunks"
EV_INGEST_KILL_AFTER=1 ev-ingest --db k.db --quiet --batch 2 docs.jsonl
echo "killed: status $?"
sqlite3 k.db "SELECT value FROM meta WHERE key = 'chunks.rowid_max'; SELECT max(rowid) FROM chunks"
ev-ingest --db k.db --quiet --batch 2 docs.jsonl
sqlite3 k.db "SELECT value FROM meta WHERE key = 'chunks.rowid_max'; SELECT group_concat(rowid || '=' || id, ' ') FROM chunks"
