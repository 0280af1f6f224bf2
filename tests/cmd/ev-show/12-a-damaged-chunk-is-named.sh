# A chunk whose offsets are not those of its text, in a store damaged by
# hand: a document's end before its start made ev-show say "out of memory"
# (a copy of a negative length), a start before 0 showed bytes of the
# chunk's text that are not the document's ("fill"), and a page left the
# chunk out without a word.  Such a chunk is now left out and named on
# stderr, with its document and how to repair the store; the document's and
# the page's other chunks are shown (exit 0).
python3 "$CASEDIR/mkpaged.py" rows >rows.jsonl
ev-ingest --db kb.db --size 300 rows.jsonl >/dev/null 2>&1 || exit 1
printf '%s\n' '{"id":"z","text":"alpha words and more words here to fill"}' >z.jsonl
ev-ingest --db kb.db --quiet z.jsonl || exit 1
sqlite3 kb.db "UPDATE chunks SET offset_start = 10, offset_end = 5 WHERE doc_id = 'z'" || exit 1
ev-show --db kb.db doc:z 2>err.txt >out.jsonl
echo "exit $?"
cat err.txt
jq -c '[.text, .offset_start]' out.jsonl
sqlite3 kb.db "UPDATE chunks SET offset_start = -5, offset_end = 3 WHERE doc_id = 'z'" || exit 1
ev-show --db kb.db doc:z 2>err.txt | jq -c '[.text, .offset_start]'
cat err.txt
sqlite3 kb.db "UPDATE chunks SET offset_start = 200, offset_end = 100 WHERE rowid = 1" || exit 1
ev-show --db kb.db 'doc::rows::page-1' 2>err.txt | jq -r '.text' | head -n 2
cat err.txt
