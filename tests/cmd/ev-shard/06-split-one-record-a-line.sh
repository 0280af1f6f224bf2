# split reads the corpus a line at a time, as ev-ingest does: a line that
# holds two records, or a record spread over several lines, is refused
# (exit 2), jq's message naming the corpus line (its wording, which varies
# with jq's version, cut here).  (jq read the file as a stream of values: a
# line of two records gave one shard number too many, every later document
# went to the shard of the one before it and blank lines were written into
# the shards; a record over two lines went to a shard named "shard-", exit
# 0.)  Blank lines are skipped, and a last line without a newline is kept.
shard=$CASEDIR/../../../scripts/ev-shard
split() {
	"$shard" split -n 2 "$@" > out 2>&1
	s=$?
	sed 's/^\(jq: error (at [^)]*)\).*/\1/' out
	echo "exit $s"
}
printf '%s\n' '{"id":"a","text":"one"} {"id":"b","text":"two"}' '{"id":"c","text":"three"}' > two.jsonl
split two.jsonl a
cat a/* 2>/dev/null
printf '{"id": "a",\n "text": "one"}\n' > pretty.jsonl
split pretty.jsonl b
ls b
printf '%s\n' '{"id":"a","text":"one"}' '' '  ' '{"id":"b","text":"two"}' '{"id":"c","text":"three"}' > ok.jsonl
printf '{"id":"d","text":"four"}' >> ok.jsonl
split ok.jsonl c
for i in 0 1; do echo "shard $i: $(jq -r .id c/shard-$i.jsonl | tr '\n' ' ')"; done
