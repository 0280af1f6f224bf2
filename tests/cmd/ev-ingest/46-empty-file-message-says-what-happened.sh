# An empty or blank file is stored with its name as its title and no chunk,
# and stderr says so: the file has no text.  (It said "no text, no title",
# though the document was stored with a title.)  A record with neither says
# that.
exec 2>&1
: > empty.md
printf ' \n\n' > blank.txt
ev-ingest --db kb.db --quiet empty.md blank.txt; echo "exit $?"
echo '{"id":"e1","text":" "}' | ev-ingest --db kb.db --quiet; echo "exit $?"
sqlite3 kb.db "SELECT doc_id, title, (SELECT count(*) FROM chunks c WHERE c.doc_id = d.doc_id)
	FROM documents d ORDER BY doc_id"
