# A published_date with anything after its date, time, fraction and zone is
# refused as bad input naming the file and line, exit 2, the store left as it
# was.  (Junk after a time, "2025-01-01T10xyz", was stored.)  A fraction and
# a zone written as RFC 3339 or ISO 8601 write them are stored.
exec 2>&1
printf '%s\n' '{"id":"ok","text":"kept"}' > first.jsonl
ev-ingest --db kb.db --quiet first.jsonl; echo "exit $?"
sqlite3 kb.db .dump > before
for d in 2020-01-01xyz 2025-01-01T10xyz 2025-01-01T10:00xyz '2025-01-01T10:00:00 junk' \
    2025-01-01T10:00:00. 2025-01-01T10:00:00Zx 2025-01-01T10:00:00+1 2025-01-01T10:00:00+24:00; do
	printf '{"id":"new","text":"new"}\n{"id":"d","text":"dated","published_date":"%s"}\n' "$d" \
	    > dated.jsonl
	ev-ingest --db kb.db --quiet dated.jsonl; echo "exit $?"
done
sqlite3 kb.db .dump | cmp - before && echo store unchanged
n=0
for d in 2025-01-01T10:30:00,25 2025-01-01T10:30-0500 2025-01-01T10:30:00.123+05:30 \
    2025-01-01T10+01; do
	n=$((n + 1))
	printf '{"id":"d%s","text":"dated","published_date":"%s"}\n' "$n" "$d"
done > good.jsonl
ev-ingest --db kb.db --quiet good.jsonl; echo "exit $?"
sqlite3 kb.db "SELECT doc_id, published_date FROM documents ORDER BY doc_id"
