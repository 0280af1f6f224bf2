# A published_date that names no day of the calendar (30 February, 29
# February of a year that is not a leap year, 31 April) or no time of day
# (hour 25, minute 60) is refused as month 13 is: exit 2, the file and line
# named, the store left as it was.  (They were stored: only the month and a
# day above 31 were checked.)  29 February of a leap year, and the times
# that are, are stored.
exec 2>&1
printf '%s\n' '{"id":"ok","text":"kept"}' > first.jsonl
ev-ingest --db kb.db --quiet first.jsonl; echo "exit $?"
for d in 2025-13-01 2025-02-30 2023-02-29 1900-02-29 2025-04-31 2025-01-01T25:00 \
    2025-01-01T23:60 '2025-01-01 10:00:61' 2025-01-01T1 2025-01-01Tnoon; do
	printf '{"id":"new","text":"new"}\n{"id":"d","text":"dated","published_date":"%s"}\n' "$d" \
	    > dated.jsonl
	ev-ingest --db kb.db --quiet dated.jsonl; echo "exit $?"
done
sqlite3 kb.db "SELECT doc_id FROM documents ORDER BY doc_id"
n=0
for d in 2024-02-29 2000-02-29 2025-12-31T23:59:60Z 2025-01-01T00:00 '2025-01-01 10:30:00.5+01:00' \
    2025-01-01T10Z 2025-06 1999; do
	n=$((n + 1))
	printf '{"id":"d%s","text":"dated","published_date":"%s"}\n' "$n" "$d"
done > good.jsonl
ev-ingest --db kb.db --quiet good.jsonl; echo "exit $?"
sqlite3 kb.db "SELECT doc_id, published_date FROM documents ORDER BY doc_id"
