# A postings file cut short, or whose header is not a postings file's, was
# called stale ('the store was written since, or another version of evkit
# made it'), which it was not: it is now called damaged, with the store and
# the command that makes it again; the search ranks through FTS5, as for a
# stale file, and answers the same.  A file the store was written since is
# still stale.
exec 2>&1
export EV_FIXED_TIME=2026-11-29T02:10:33.123Z	# the lanes' stamp (retrieved_at), pinned
. "$CASEDIR/mkstore"; mksearched kb.db
cp kb.db.postings whole.postings
size=$(wc -c < kb.db.postings)
head -c $((size - 1)) whole.postings > kb.db.postings
ev-search-text --db kb.db -k 2 q.jsonl | cmp - before.jsonl && echo "cut short: the same hits"
head -c 120 /dev/zero | dd of=kb.db.postings bs=1 seek=8 conv=notrunc 2>/dev/null
ev-search-text --db kb.db -k 2 q.jsonl | cmp - before.jsonl && echo "header zeroed: the same hits"
cp whole.postings kb.db.postings
printf '{"id": "d9", "text": "A late note on a plate."}\n' |
	ev-ingest --db kb.db --quiet --no-postings - || exit 1
ev-search-text --db kb.db -k 2 q.jsonl >/dev/null; echo "exit $?"
