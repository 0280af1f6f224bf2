# A store made before the "evkit" tokeniser (schema version 1: FTS5's porter
# unicode61, under which Chinese is not searchable) is refused by every
# command, unchanged, with the command that upgrades it; 'ev-ingest
# --reindex' upgrades it in place (each chunk's language, the index made
# again; rowids, so vectors, kept), after which its Chinese is found.  A
# second --reindex has nothing to do.
exec 2>&1
sqlite3 kb.db <<'SQL'
CREATE TABLE documents (doc_id TEXT PRIMARY KEY, source TEXT, title TEXT, source_uri TEXT,
  source_type TEXT, language TEXT, published_date TEXT, metadata TEXT,
  content_hash TEXT NOT NULL, length INTEGER, ingested_at TEXT);
CREATE TABLE chunks (rowid INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE,
  doc_id TEXT NOT NULL REFERENCES documents(doc_id), section_id TEXT NOT NULL,
  chunk_index INTEGER NOT NULL, title TEXT, section_title TEXT, section_path TEXT,
  text TEXT NOT NULL, offset_start INTEGER, offset_end INTEGER, content_hash TEXT NOT NULL);
CREATE VIRTUAL TABLE chunks_fts USING fts5(title, section_title, text,
  content='chunks', content_rowid='rowid', tokenize='porter unicode61 remove_diacritics 2');
CREATE VIRTUAL TABLE chunks_vocab USING fts5vocab(chunks_fts, 'row');
CREATE TABLE chunk_tombstones (rowid INTEGER PRIMARY KEY);
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT);
INSERT INTO meta VALUES ('schema_version', '1');
INSERT INTO documents(doc_id, language, content_hash) VALUES ('zh', NULL, 'sha256:a'), ('fr', 'fr', 'sha256:b');
INSERT INTO chunks VALUES (7, 'zh:_top:0', 'zh', '_top', 0, '蜂群', '', '',
  '养蜂人常用草酸防治蜂螨。', 0, 36, 'sha256:c');
INSERT INTO chunks VALUES (9, 'fr:_top:0', 'fr', '_top', 0, 'Ruches', '', '',
  'Les ruches en hiver.', 0, 20, 'sha256:d');
INSERT INTO chunks_fts(chunks_fts) VALUES('rebuild');
SQL
before=$(sqlite3 kb.db .dump | sha256sum)
echo '"蜂螨"' | ev-search-text --db kb.db; echo "exit $?"
ev-ingest --db kb.db --quiet /dev/null; echo "exit $?"
[ "$(sqlite3 kb.db .dump | sha256sum)" = "$before" ] && echo "store unchanged"
ev-ingest --db kb.db --reindex; echo "exit $?"
sqlite3 kb.db "SELECT rowid, id, language FROM chunks ORDER BY rowid; SELECT value FROM meta WHERE key = 'schema_version'"
for q in 蜂螨 草酸 ruche; do printf '"%s"\n' "$q" | ev-search-text --db kb.db | jq -c '[.id, .snippet]'; done
ev-ingest --db kb.db --reindex; echo "exit $?"
ev-ingest --db kb.db --reindex x.md; echo "exit $?"
