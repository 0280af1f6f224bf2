# libxml2 reads no deeper than 256 nested elements: the rest of the page is
# not in its tree.  The text before is kept, and a warning names the file
# and the line where the text stops (it was lost without a word, a page of
# unclosed <font> tags cut short).  A page just within the limit is whole.
deep() {
	printf '<html><body><p>first words</p>\n<p>second words</p>\n'
	i=0; while [ $i -lt "$1" ]; do printf '<font>'; i=$((i + 1)); done
	printf 'deep words\n<p>after words</p></body></html>\n'
}
deep 250 > within.html
deep 300 > beyond.html
ev-extract within.html beyond.html 2>err | jq -c '[.id, .text]'
echo "exit $?"
cat err
ev-ingest --db kb.db --quiet beyond.html 2>&1 >/dev/null
echo "exit $?"
