# A directory is walked recursively in name order; --prune deletes the
# documents of that source that this run did not see, and only those.
mkdir -p docs/sub
echo "Alpha notes." > docs/a.txt
echo "# Beta" > docs/sub/b.md
printf '\nBeta body.\n' >> docs/sub/b.md
echo "Gamma notes." > docs/c.txt
echo "ignored" > docs/d.json
ev-ingest --db kb.db docs | cut -d, -f1-3
echo '{"id": "other", "text": "another source"}' | ev-ingest --db kb.db --quiet
rm docs/c.txt
ev-ingest --db kb.db --prune docs
sqlite3 kb.db "SELECT doc_id, source FROM documents ORDER BY doc_id"
sqlite3 kb.db "SELECT count(*) FROM chunk_tombstones"
