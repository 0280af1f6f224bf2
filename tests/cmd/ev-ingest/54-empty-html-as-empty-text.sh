# An empty .html file (no byte, or only white space, a comment, a doctype)
# is stored with no chunk and a warning, as an empty .txt or .md file is;
# it failed the run ("not readable as HTML (empty?)", exit 2, nothing stored).
exec 2>&1
: > empty.html
printf '<!DOCTYPE html>\n<!-- draft -->\n' > bare.html
: > empty.txt
ev-ingest --db kb.db --quiet empty.html bare.html empty.txt; echo "exit $?"
sqlite3 kb.db "SELECT doc_id, title, (SELECT count(*) FROM chunks c WHERE c.doc_id = d.doc_id)
	FROM documents d ORDER BY doc_id"
ev-extract empty.html; echo "exit $?"
