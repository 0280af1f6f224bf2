# --index '' names no file: a load with no records said "index '' not
# written" and exited 0; one with records failed only when renaming its
# index into place.  Exit 2 before any input is read.
exec 2>&1
ev-mv-load --index '' < /dev/null; echo "exit $?"
ev-mv-load --index '' "$CASEDIR/records.jsonl"; echo "exit $?"
ls
