# --log - is refused by every command, in the one place options are read:
# the log is appended to a file, and standard output carries the command's
# records, so '-' is no log.  It was taken for a file named '-', made in
# the working directory by whichever command ran.
printf '{"query_id":"q","id":"a","rank":1,"score":1,"lane":"text"}\n' >hits.jsonl
for cmd in "ev-fuse hits.jsonl" "ev-pack hits.jsonl" "ev-score /dev/null"; do
	$cmd --log - >out 2>err
	echo "${cmd%% *}: status $?"
	cat err
	[ -s out ] && echo "output written"
done
ev-fuse --log=- hits.jsonl >out 2>err
echo "ev-fuse --log=-: status $?"
cat err
[ -e ./- ] && echo "a file named - was made"
exit 0
