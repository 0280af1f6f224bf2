# An output file named by the empty string (--log "", ev-eval's --trec "",
# ev-tune's -o "") is refused before anything runs, exit 2, saying that the
# flag names no file.  It passed the up-front check and failed only at the
# end, exit 1, "cannot open" a file named '', after the records were written.
printf '{"query_id":"q","id":"a","doc_id":"a","rank":1,"score":1,"lane":"text"}\n' >hits.jsonl
printf 'q 0 a 1\n' >qrels.txt
run() {
	"$@" <hits.jsonl >out 2>err
	echo "$*: status $?"
	cat err
	[ -s out ] && echo "output written"
}
run ev-fuse --log "" hits.jsonl
run ev-pack --log= hits.jsonl
run ev-score --log "" /dev/null
run ev-eval --qrels qrels.txt --trec "" hits.jsonl
run ev-tune --db none.db --qrels qrels.txt -o ""
exit 0
