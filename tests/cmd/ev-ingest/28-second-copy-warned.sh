# A file whose text another file of the run has (a copied directory, a
# link) is a second copy under another id: stored, and warned about.
mkdir docs
echo "Alpha notes." >docs/a.txt
echo "Beta notes." >docs/b.txt
cp -r docs copy
ln -s ../docs/a.txt copy/link.txt
ev-ingest --db kb.db --quiet docs copy
sqlite3 kb.db "SELECT doc_id FROM documents ORDER BY doc_id"
