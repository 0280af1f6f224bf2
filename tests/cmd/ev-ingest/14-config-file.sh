# --config sets chunk.size and chunk.overlap; a flag overrides the file; an
# unknown key is warned about.
printf 'chunk:\n  size: 64\n  overlap: 0\ningest:\n  colour: blue\n' > c.yaml
for i in 1 2 3 4 5 6; do printf 'Sentence %d is here. ' $i; done > long.txt
ev-ingest --db kb.db --config c.yaml --quiet long.txt
sqlite3 kb.db "SELECT count(*) FROM chunks"
ev-ingest --db kb2.db --config c.yaml --size 1200 --quiet long.txt 2>/dev/null
sqlite3 kb2.db "SELECT count(*) FROM chunks"
printf 'chunk:\n  size: 10\n' > bad.yaml
ev-ingest --db kb3.db --config bad.yaml long.txt
echo "status $?"
