# --hosts '' (a variable left empty, say) indexed and searched everything
# here, as if --hosts had been left out, exit 0; an empty login in the list
# ('a,,b', ' ') was dropped or handed to GNU parallel.  Each is bad usage,
# exit 2, saying what to give, before anything runs.
exec 2>&1
shard=$CASEDIR/../../../scripts/ev-shard
"$shard" split -n 2 "$CASEDIR"/../ev-search-text/docs.jsonl a 2>/dev/null || exit 1
echo '"flat plate"' > q.jsonl
for h in '' ',' ' ' 'a,,b' 'me@a,'; do
	"$shard" index --hosts "$h" a; echo "exit $?"
done
"$shard" search --hosts '' a q.jsonl; echo "exit $?"
ls a
