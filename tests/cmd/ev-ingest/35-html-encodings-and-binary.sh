# The encoding of an HTML page is found as a browser finds it: a page of
# UTF-8 that declares nothing is read as UTF-8 (its words found), a page
# that declares its encoding in a <meta> is read so, and one that is
# neither is read as the encoding uchardet guesses, which is said on
# stderr.  Binary bytes named .html are refused (exit 2), as they are
# named .txt, and the store is left as it was.
printf '<html><body><p>Wi\305\233niewski moved from K\303\266ln to Z\303\274rich, then to \345\214\227\344\272\254.</p></body></html>\n' >utf8.html
printf '<html><head><meta http-equiv="Content-Type" content="text/html; charset=iso-8859-2"></head><body><p>Pani Wi\266niewska</p></body></html>\n' >declared.html
printf '<html><body><p>Les \351l\350ves de l\047\351cole fran\347aise \351tudient \340 Gen\350ve, pr\350s du lac. Le caf\351 est d\351licieux.</p></body></html>\n' >latin.html
printf '\211PNG\r\n\032\n\000\000\000\rIHDR\000\000\000\020' >image.html
cp image.html image.txt
ev-ingest --db kb.db --quiet utf8.html declared.html latin.html 2>&1
echo "status $?"
sqlite3 kb.db "SELECT doc_id, text FROM chunks ORDER BY doc_id"
for q in Köln Zürich 北京 Wiśniewski Wiśniewska Genève; do
	echo "\"$q\"" | ev-search-text --db kb.db -k 1 | jq -r '.doc_id'
done
before=$(sqlite3 kb.db "SELECT count(*), group_concat(id) FROM chunks")
ev-ingest --db kb.db image.html 2>&1
echo "status $?"
ev-ingest --db kb.db image.txt 2>&1
echo "status $?"
[ "$(sqlite3 kb.db "SELECT count(*), group_concat(id) FROM chunks")" = "$before" ] && echo "store unchanged"
