# Without --train-shard, the model is trained on the shard of the most
# documents (the first of them on a tie).  It was shard 0, always: here the
# split leaves shard 0 empty, and 'index' failed (exit 1: no chunks to train
# on); on a small shard 0 the model knew few of the collection's words.
# --train-shard still chooses, and an empty one still fails.
export EV_FIXED_TIME=2026-11-29T02:10:33.123Z	# the lanes' stamp (retrieved_at), pinned
exec 2>&1
shard=$CASEDIR/../../../scripts/ev-shard
printf '%s\n' '{"id":"a","text":"flat plate boundary layer"}' '{"id":"b","text":"wing flutter at speed"}' \
	'{"id":"c","text":"heat transfer in a flat plate"}' '{"id":"e","text":"a flat plate in a shear flow"}' \
	> corpus.jsonl
"$shard" split -n 4 corpus.jsonl a
"$shard" index a; echo "exit $?"
printf '%s\n' '"flat plate"' > q.jsonl
"$shard" search --lane vector -k 2 a q.jsonl | jq -c '[.query_id, .id]'
"$shard" index --train-shard 0 a >out.txt 2>&1; echo "exit $?"
grep '^ev-' out.txt
