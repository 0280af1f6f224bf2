# A file whose text another file of the run has (a copied directory, a
# link) is a second copy under another id: stored, and warned about.
mkdir docs
echo "Alpha notes." >docs/a.txt
echo "Beta notes." >docs/b.txt
cp -r docs copy
ln -s ../docs/a.txt copy/link.txt
ev-ingest --db kb.db --quiet docs copy
sqlite3 kb.db "SELECT doc_id FROM documents ORDER BY doc_id"
# The same file named twice, or reached through a link to its directory, is
# one document, read once.
ln -s docs alias
ev-ingest --db kb.db docs ./docs/a.txt alias | jq -r .id
sqlite3 kb.db "SELECT doc_id, source FROM documents ORDER BY doc_id"
