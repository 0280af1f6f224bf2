# A query record's fields are copied into its hits, but never one that is
# a hit's own (its chunk's, its document's), even where the chunk has none:
# a query's "text", "metadata", "published_date", "source_type" or "page"
# would otherwise read, downstream, as the chunk's; ev-pack's snippet of
# the chunk's whole text (--snippet-policy l2) was the query's "text".
# Other fields ("user") are copied as before.
export EV_FIXED_TIME=2026-11-29T02:10:33.123Z	# the lanes' stamp (retrieved_at), pinned
exec 2>&1
echo '{"id":"n1","text":"The wing of a glider bends under load."}' > docs.jsonl
ev-ingest --db kb.db --quiet docs.jsonl || exit 1
echo '{"query_id":"q1","query":"wing","text":"NOT THE CHUNK","metadata":{"from":"query"},"published_date":"1999","source_type":"query","page":7,"user":{"keep":true}}' > q.jsonl
ev-search-text --db kb.db q.jsonl > hits.jsonl || exit 1
jq -c '{id, text, metadata, published_date, source_type, page, user}' hits.jsonl
ev-pack --db kb.db --snippet-policy l2 hits.jsonl | jq -c '.evidences[] | [.id, .snippet]'
