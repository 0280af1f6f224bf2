exec 2>&1
ev-mv-load; echo "exit $?"
ev-mv-load --index x.mvi --factory ""; echo "exit $?"
ev-mv-load --index x.mvi --lane "Visual Lane"; echo "exit $?"
ev-mv-load --index x.mvi --model ""; echo "exit $?"
ev-mv-load --index x.mvi --factory "NoSuchIndex" "$CASEDIR/records.jsonl"; echo "exit $?"
ls
ev-mv-load --bogus; echo "exit $?"
