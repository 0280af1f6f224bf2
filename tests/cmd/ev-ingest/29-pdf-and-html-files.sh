# PDF and HTML files, named or found in directories, are read through
# ev-extract in a process of its own, beside Markdown: their ids follow the
# store's rule (relative to its base, wherever the command runs), each PDF
# chunk's record says the page it starts on, and page_end when it crosses a
# page break ("Hive Inspection" runs from page 1 onto page 2); the boxes of
# each chunk's lines are stored by chunk, and the document keeps only its
# small metadata.  HTML has no pages.
mkdir -p kb/docs/guides
python3 "$CASEDIR/../ev-extract/mkpdf.py" pagebreak kb/docs/hive.pdf
python3 "$CASEDIR/../ev-extract/mkpdf.py" fonts kb/docs/guides/pump.PDF
printf '<html><head><title>Bees</title></head><body><nav>Home | About</nav><main><h1>Bees</h1><p>Varroa mites are counted in spring.</p><h2>Sugar</h2><p>Feed sugar in autumn.</p></main><script>var x;</script></body></html>\n' > kb/docs/guides/bees.htm
printf '# Notes\n\nPlain notes.\n' > kb/docs/notes.md
cd kb/docs/guides
ev-ingest --db ../../kb.db --base ../.. .. | jq -c '[.id, .section_path, .offset_start, .offset_end, .page, .page_end]'
echo "status $?"
cd ../../..
sqlite3 kb/kb.db "SELECT c.id, r.page, r.page_end, r.lines FROM chunk_regions r JOIN chunks c ON c.rowid = r.rowid ORDER BY c.id"
sqlite3 kb/kb.db "SELECT doc_id, source_uri, title, metadata FROM documents ORDER BY doc_id"
# the same files by another spelling, from the base: nothing new
cd kb && ev-ingest --db kb.db ./docs/ docs/hive.pdf
echo "status $?"
