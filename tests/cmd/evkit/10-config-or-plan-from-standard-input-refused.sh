# --config - and --plan - are refused, saying that a configuration or plan
# is read from a file and standard input is not one (it carries the
# records), with exit 2 and nothing written.  They said only "-: cannot
# open: No such file or directory", as if a file named '-' were missing.
printf '{"query_id":"q","id":"a","rank":1,"score":1,"lane":"text"}\n' >hits.jsonl
for cmd in "ev-fuse --config - hits.jsonl" "ev-pack --plan - hits.jsonl" \
    "ev-pack --config=- hits.jsonl" "ev-tune --db none.db --plan -"; do
	$cmd <hits.jsonl >out 2>err
	echo "$cmd: status $?"
	cat err
	[ -s out ] && echo "output written"
done
exit 0
