# -k is checked before any job runs, as the other usage errors are: a count
# the lanes refuse (0, over 100000) is bad usage, exit 2.  (It ran the first
# pass on every shard, then failed each search job, exit 1.)
exec 2>&1
shard=$CASEDIR/../../../scripts/ev-shard
"$shard" split -n 2 "$CASEDIR"/../ev-search-text/docs.jsonl a 2>/dev/null || exit 1
"$shard" index a 2>/dev/null || exit 1
echo '"flat plate"' > q.jsonl
for k in 0 100001 99999999999999999999; do
	"$shard" search -k "$k" a q.jsonl; echo "exit $?"
done
"$shard" search -k 1 a q.jsonl | jq -r .doc_id; echo "exit $?"
ls a | grep -c '^search\.' || true
