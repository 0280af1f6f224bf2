# A store's base moves with it: when the documents sit under the store's
# directory, the base is recorded relative to that directory.  A store and
# its documents copied elsewhere (as cp -r, rsync or a backup restore do)
# and ingested there change no id, print no chunk, and --prune removes
# nothing.  A store whose base an older evkit recorded absolute has it
# recorded relative at its next ingest in place, and then moves as well.
mkdir -p old/d/sub
printf '# Alpha\n\nThe alpha note.\n' >old/d/a.md
printf '# Beta\n\nThe beta note.\n' >old/d/sub/b.md
(cd old && ev-ingest --db kb.db --quiet d/)
sqlite3 old/kb.db "SELECT value FROM meta WHERE key = 'ingest.base'"
cp -r old new
(cd new && ev-ingest --db kb.db --prune d/)
echo "status $?"
sqlite3 new/kb.db "SELECT doc_id FROM documents ORDER BY doc_id"
# from elsewhere, by another spelling: still nothing new
ev-ingest --db new/kb.db --prune new/d/
echo "status $?"
# an absolute base, as an older evkit recorded it
mkdir -p older/d
printf '# Gamma\n\nThe gamma note.\n' >older/d/c.md
(cd older && ev-ingest --db kb.db --quiet d/ &&
    sqlite3 kb.db "UPDATE meta SET value = '$(pwd -P)' WHERE key = 'ingest.base'")
(cd older && ev-ingest --db kb.db d/)
sqlite3 older/kb.db "SELECT value FROM meta WHERE key = 'ingest.base'"
mv older moved
(cd moved && ev-ingest --db kb.db --prune d/)
echo "status $?"
sqlite3 moved/kb.db "SELECT doc_id FROM documents ORDER BY doc_id"
# a base outside the store's directory stays absolute
mkdir -p docs stores
printf '# Delta\n\nThe delta note.\n' >docs/e.md
ev-ingest --db stores/kb.db --quiet docs/
[ "$(sqlite3 stores/kb.db "SELECT value FROM meta WHERE key = 'ingest.base'")" = "$(pwd -P)" ] &&
    echo "a base outside the store is absolute"
