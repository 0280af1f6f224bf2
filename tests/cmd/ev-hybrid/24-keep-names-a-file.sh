# --keep DIR naming a file that is not a directory: mkdir -p failed half way
# through the run with its own message ("File exists") and exit 1.  It is
# bad usage now, said before anything runs, the file left as it was.
. "$CASEDIR/store.inc"
echo "mine" >notes.txt
"$hybrid" --db db --keep notes.txt flutter >packs.jsonl 2>err.txt
echo "status $?"
cat err.txt
wc -l <packs.jsonl
cat notes.txt
