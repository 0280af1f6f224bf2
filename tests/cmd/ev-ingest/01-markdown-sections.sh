# A Markdown file: its id is the path as given; sections from headings (the
# text before the first one in "_top"), a code block kept whole, the title
# from the first level-1 heading, offsets into the file.
cp "$TESTDATA/ingest/guide.md" .
ev-ingest --db kb.db guide.md
