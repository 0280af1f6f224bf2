# A date in a published_date filter is read as ev-ingest reads a document's:
# 30 February or hour 25 is bad input (exit 2, the line named), not a bound
# that matches nothing or everything.  (They were taken: only "YYYY-" and a
# digit were checked.)
. "$CASEDIR/mkstore"; mkstore kb.db
for f in '{"from":"2021-02-30"}' '{"to":"2021-01-01T25:00"}' '{"from":"2021-13"}' \
    '{"from":"2020-02-29","to":"2021-06-30T12:00"}'; do
	printf '{"query_id":1,"query":"wing","filters":{"published_date":%s}}\n' "$f" |
	    ev-search-text --db kb.db >/dev/null
	echo "status $?"
done 2>&1
