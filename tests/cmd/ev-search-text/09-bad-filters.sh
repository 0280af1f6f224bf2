# An unknown or malformed filter is bad input (exit 2, the line named), never
# silently ignored.
. "$CASEDIR/mkstore"; mkstore kb.db
for f in '{"lang":"en"}' '{"doc_id":3}' '{"metadata":{"a":{"b":1}}}' '{"published_date":{"since":"2020"}}' \
    '{"published_date":{"from":"yesterday"}}' '[]'; do
	printf '"wing"\n{"query_id":2,"query":"wing","filters":%s}\n' "$f" | ev-search-text --db kb.db >/dev/null
	echo "status $?"
done 2>&1
