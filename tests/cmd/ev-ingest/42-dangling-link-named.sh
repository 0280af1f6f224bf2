# A symbolic link of a document's name that leads nowhere (its target on a
# share that is not mounted) is named on standard error as skipped, even
# without --verbose: with --prune its document is deleted, and the user is
# told why.  (It was skipped without a word.)  A dangling link of another
# name is not a document, and is not named.
exec 2>&1
mkdir docs share
echo "Local notes." > docs/a.md
echo "Shared notes." > share/notes.md
ln -s ../share/notes.md docs/shared.md
ln -s ../share/logo.png docs/logo.png
ev-ingest --db kb.db --quiet docs; echo "exit $?"
mv share elsewhere
ev-ingest --db kb.db --quiet --prune docs; echo "exit $?"
sqlite3 kb.db "SELECT doc_id FROM documents ORDER BY doc_id"
ev-ingest --db kb.db --quiet --verbose docs; echo "exit $?"
