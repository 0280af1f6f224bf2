# --lane names a lane as evkit's lanes name themselves (1 to 31 lowercase
# letters, digits, '_' or '-'): --lane TEXT matched no hit and scored every
# query 0 (exit 0, a note on standard error); it is bad usage now.
ev-eval --qrels "$CASEDIR/small.qrels" --lane TEXT "$CASEDIR/small.jsonl"
echo "exit $?"
