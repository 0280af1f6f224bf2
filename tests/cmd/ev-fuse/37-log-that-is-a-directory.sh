# A --log that names a directory cannot be written: it is bad usage said
# before anything runs ("cannot write the log: Is a directory; nothing was
# run", exit 2, nothing on standard output), as a missing directory is.  It
# passed the check, the command did its work and wrote its results, and
# only then failed to open the log (exit 1; ev-ingest had changed the store).
mkdir logs
for cmd in "ev-fuse $CASEDIR/text.jsonl" "ev-pack $CASEDIR/text.jsonl" "ev-score /dev/null"; do
	$cmd --log logs >out 2>err
	echo "${cmd%% *}: status $?"
	cat err
	[ -s out ] && echo "output written"
done
printf '# A\n\nSome text.\n' >a.md
ev-ingest --db kb.db --log logs a.md >out 2>err
echo "ev-ingest: status $?"
cat err
[ -e kb.db ] && echo "store made"
ls logs
