# A file that is not a multi-vector index is never overwritten, not even
# with --reset; a directory is refused; nothing loaded writes nothing.
exec 2>&1
echo "my notes" > notes.txt
ev-mv-load --index notes.txt --reset "$CASEDIR/records.jsonl"; echo "exit $?"
cat notes.txt
mkdir d
ev-mv-load --index d "$CASEDIR/records.jsonl"; echo "exit $?"
ev-mv-load --index new.mvi < /dev/null; echo "exit $?"
ls
