# An operand that is a pipe, as a process substitution gives it
# (ev-ingest --prune <(export-command), named /dev/fd/63), is a source of
# the same name from run to run, so that --prune deletes the documents the
# export no longer holds.  (Its name was resolved to /proc/PID/fd/63, a new
# source at each run: nothing was ever pruned.)  With --format markdown the
# document it holds keeps its id too.  Here the pipe is fd 3 (/dev/fd/3).
exec 2>&1
printf '%s\n' '{"id":"a","text":"one"}' '{"id":"b","text":"two"}' |
	ev-ingest --db kb.db --quiet --prune /dev/fd/3 3<&0
printf '%s\n' '{"id":"a","text":"one"}' | ev-ingest --db kb.db --prune /dev/fd/3 3<&0
echo "exit $?"
sqlite3 kb.db "SELECT doc_id, source FROM documents ORDER BY doc_id"
printf '# Notes\n\nfirst\n' | ev-ingest --db md.db --quiet --format markdown /dev/fd/3 3<&0
printf '# Notes\n\nfirst\n' | ev-ingest --db md.db --format markdown /dev/fd/3 3<&0
echo "exit $?"
sqlite3 md.db "SELECT doc_id, source FROM documents ORDER BY doc_id"
