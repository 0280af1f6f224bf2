export EV_FIXED_TIME=2026-11-29T02:10:33.123Z	# the lanes' stamp (retrieved_at), pinned
exec 2>&1
# With the store out of the page cache, a hit's row comes from the disk and
# the lane asks for the pages of the hits after it ahead: the same records.
# (Where the directory is in memory, tmpfs, nothing is evicted: the same.)
. "$CASEDIR/../ev-embed-load/mkstore"; mkstore kb.db 6
ev-embed-load --db kb.db --index kb.faiss "$CASEDIR/../ev-embed-load/vectors.jsonl" 2>/dev/null
q='{"query_id":"q1","vector":[3,1,0,0]}'
echo "$q" | ev-search-vec --db kb.db --index kb.faiss -k 6 > cached.jsonl
sync kb.db
dd if=kb.db iflag=nocache count=0 status=none	# POSIX_FADV_DONTNEED: out of the page cache
echo "$q" | ev-search-vec --db kb.db --index kb.faiss -k 6 > evicted.jsonl
cmp cached.jsonl evicted.jsonl && echo "the same records"
jq -c '[.rank, .id, .score, .doc_id, .published_date]' evicted.jsonl
