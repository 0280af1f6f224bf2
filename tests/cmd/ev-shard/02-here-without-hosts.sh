# Without hosts everything runs here, in DIR: a document's shard depends on its
# id alone (a reversed corpus splits the same), the model is trained on shard
# 2 and copied into each, and the text lane's merged hits are one store's.
# Bad usage is refused (exit 2).
export EV_FIXED_TIME=2026-11-29T02:10:33.123Z	# the lanes' stamp (retrieved_at), pinned
exec 2>&1
shard=$CASEDIR/../../../scripts/ev-shard
cat "$CASEDIR"/../ev-search-text/docs.jsonl "$CASEDIR"/../ev-search-text/bees.jsonl > corpus.jsonl
"$shard" split -n 3 corpus.jsonl a 2>/dev/null || exit 1
tac corpus.jsonl > reversed.jsonl
"$shard" split -n 3 reversed.jsonl b 2>/dev/null || exit 1
for i in 0 1 2; do
	echo "shard $i: $(jq -r .id a/shard-$i.jsonl | sort | tr '\n' ' ')"
	[ "$(sort a/shard-$i.jsonl)" = "$(sort b/shard-$i.jsonl)" ] || echo "shard $i differs"
done
"$shard" index --train-shard 2 a 2>/dev/null || exit 1
echo "one model in the 3 shards, as in model.db: $(ev-embed --db a/model.db --drift 2>/dev/null | jq -r '.model | startswith("lsa")')"
for i in 0 1 2; do ev-embed --db a/shard-$i.db --drift 2>/dev/null | jq -r .model; done | sort -u | wc -l
printf '%s\n' '"flat plate"' '"honey bees"' '"wing slipstream"' > q.jsonl
"$shard" search -k 4 a q.jsonl -- --feedback 0 > merged.jsonl || exit 1
ev-ingest --db one.db --quiet corpus.jsonl
ev-search-text --db one.db -k 4 --feedback 0 q.jsonl | ev-fuse --method merge | cmp - merged.jsonl &&
	echo "the hits of one store ($(wc -l < merged.jsonl))"
echo "refused:"
"$shard" split -n 0 corpus.jsonl c; echo "exit $?"
"$shard" split -n 2 corpus.jsonl a; echo "exit $?"
"$shard" split corpus.jsonl; echo "exit $?"
"$shard" search a q.jsonl --feedback 0; echo "exit $?"
"$shard" search --lane both a q.jsonl; echo "exit $?"
"$shard" index nowhere; echo "exit $?"
"$shard" shuffle a; echo "exit $?"
