# A document's shard is the hash of its id, which ev-ingest takes as a
# non-empty string alone.  split sharded a record without an id (as the
# text "null"), or with an id of another type, or an empty one, and said
# nothing; index then failed on the shard's own line, far from the
# corpus's.  split refuses such a record now, naming the corpus line
# (exit 2).
shard=$CASEDIR/../../../scripts/ev-shard
split() {
	"$shard" split -n 2 "$@" > out 2>&1
	s=$?
	cat out
	echo "exit $s"
}
for bad in '{"text":"no id"}' '{"id":7,"text":"a number"}' '{"id":"","text":"empty"}' \
	'{"id":{"x":1},"text":"an object"}' '"just a string"'; do
	rm -rf d
	printf '%s\n' '{"id":"a","text":"one"}' "$bad" > c.jsonl
	split c.jsonl d
done
