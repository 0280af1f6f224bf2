# Regression (finding F3): --index naming a file that is not an evkit index
# (here random bytes, then a text file) was taken for an index to rebuild and
# replaced.  It must be refused with exit 2 before anything is read or
# stored, the file and the store left as they were.  An empty file (as
# mktemp makes) and a missing one may still be written.
exec 2>&1
. "$CASEDIR/mkstore"; mkstore kb.db 6
head -c 4096 /dev/urandom > random.bin; cp random.bin random.orig
sqlite3 kb.db .dump > before.dump
ev-embed-load --db kb.db --index random.bin "$CASEDIR/vectors.jsonl"; echo "exit $?"
cmp random.bin random.orig && echo "file untouched"
sqlite3 kb.db .dump | cmp - before.dump && echo "store unchanged"
ls random.bin.* 2>/dev/null || echo "no temporary file"
printf 'my notes\n' > notes.txt
ev-embed-load --db kb.db --index notes.txt "$CASEDIR/vectors.jsonl"; echo "exit $?"
cat notes.txt
: > empty.faiss
ev-embed-load --db kb.db --index empty.faiss "$CASEDIR/vectors.jsonl" 2>/dev/null; echo "exit $?"
head -c 15 empty.faiss; echo
