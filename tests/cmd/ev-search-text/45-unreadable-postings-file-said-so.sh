# A postings file that cannot be opened (its mode lets no one read it) was
# called stale ('the store was written since, or another version of evkit
# made it'), which it was not: it is now said to be unreadable, naming the
# file and why (strerror), and what to do; the search ranks through FTS5 and
# answers the same.  Root reads through any mode bits, so as root the search
# runs as user 65534 (as in ev-ingest's read-only store case).
exec 2>&1
export EV_FIXED_TIME=2026-11-29T02:10:33.123Z	# the lanes' stamp (retrieved_at), pinned
. "$SKIPLIB"; need_reader
dir=$(mktemp -d "${TMPDIR:-/tmp}/evkit-post.XXXXXX")
trap 'chmod -R u+rw "$dir"; rm -rf "$dir"' EXIT
. "$CASEDIR/mkstore"; mkstore "$dir/kb.db"
ev-ingest --db "$dir/kb.db" --postings || exit 1
echo '"plate"' > "$dir/q.jsonl"
chmod 755 "$dir"
chmod 644 "$dir"/kb.* "$dir/q.jsonl"
as_reader ev-search-text --db "$dir/kb.db" -k 2 "$dir/q.jsonl" > before.jsonl || exit 1
chmod 000 "$dir/kb.db.postings"
as_reader ev-search-text --db "$dir/kb.db" -k 2 "$dir/q.jsonl" 2>&1 >after.jsonl |
	sed "s|$dir/|DIR/|g"
cmp before.jsonl after.jsonl && echo "unreadable: the same hits"
