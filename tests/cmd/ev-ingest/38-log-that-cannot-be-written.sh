# A --log FILE that cannot be written is bad usage, said before anything
# runs: "PROG: FILE: cannot write the log: WHY; nothing was run", exit 2, no
# result on standard output, the store exactly as it was.  Root may write
# anywhere, so the cases are a path through a regular file (ENOTDIR) and a
# device that refuses every write, /dev/full (ENOSPC).
. "$SKIPLIB"
[ -c /dev/full ] || skip "needs /dev/full (a device that refuses every write): absent"
printf '# A\n\nSome text.\n' >a.md
ev-ingest --db kb.db --quiet a.md
printf '# A\n\nOther words.\n' >a.md
cp kb.db before.db
: >afile
for log in /dev/full afile/run.log; do
	ev-ingest --db kb.db --log $log a.md >out 2>err; echo "ev-ingest: status $?"
	cat err; [ -s out ] && echo "output written"
	cmp -s kb.db before.db && echo "store unchanged"
	ev-ingest --db new.db --log $log a.md 2>/dev/null; [ -e new.db ] && echo "new.db made"
	ev-embed --db kb.db --train --log $log >out 2>err; echo "ev-embed --train: status $?"
	cat err; [ -s out ] && echo "output written"
	cmp -s kb.db before.db && echo "store unchanged"
	echo '"text"' | ev-search-text --db kb.db --log $log >out 2>err; echo "ev-search-text: status $?"
	cat err; [ -s out ] && echo "output written"
	echo '"text"' | ev-search-text --db kb.db | ev-pack --log $log >out 2>err; echo "ev-pack: status $?"
	cat err; [ -s out ] && echo "output written"
done
echo "a log that can be written:"
echo '"text"' | ev-search-text --db kb.db --log run.log | jq -r .id
jq -r '[.tool, .exit] | @tsv' run.log
