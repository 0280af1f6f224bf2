# Ids of files are relative to the store's base, however the path is
# spelled: docs/, then ./docs/ and $PWD/docs give one copy, and the later
# runs change nothing.  From another directory (cron from $HOME) the ids stay
# the same, and --prune of the directory removes a deleted file.
mkdir -p docs/sub elsewhere
printf '# Alpha\n\nAlpha notes.\n' >docs/a.md
echo "Beta notes." >docs/sub/b.txt
ev-ingest --db kb.db docs/ | jq -r .id
ev-ingest --db kb.db ./docs/ | jq -r .id
ev-ingest --db kb.db "$PWD/docs" | jq -r .id
sqlite3 kb.db "SELECT doc_id, source, source_uri FROM documents ORDER BY doc_id"
sqlite3 kb.db "SELECT count(*) FROM chunks"
rm docs/sub/b.txt
(cd elsewhere && ev-ingest --db ../kb.db --prune ../docs)
sqlite3 kb.db "SELECT doc_id, source FROM documents ORDER BY doc_id"
# (the base is the store's directory: recorded relative to it)
sqlite3 kb.db "SELECT value FROM meta WHERE key = 'ingest.base'"
# A different --base would change every id: refused.
ev-ingest --db kb.db --base elsewhere docs 2>err
echo "exit $?"
sed "s|$(pwd -P)|PWD|g" err
# A file outside the base: its absolute path.
d=$(mktemp -d)
echo "Outside." >"$d/out.txt"
ev-ingest --db kb.db "$d/out.txt" | jq -r '.doc_id == "'"$(cd "$d" && pwd -P)"'/out.txt"'
rm -r "$d"
