# The timeline measures the time between documents for every form of date
# ev-ingest takes: a year is its first day, a month its first day, a time of
# day a fraction of the day, a zone taken off.  (It used SQLite's julianday(),
# which read "2025" as the 2025th day of its calendar, 4713 BC, and read no
# month, no bare hour, no "+0100" and no lowercase 't' at all, so that such
# documents were never near anything.)
ev-ingest --db kb.db --quiet <<'JSONL'
{"id":"hit","text":"Mites in the hive.","published_date":"2025-06-15"}
{"id":"month","text":"June notes.","published_date":"2025-06"}
{"id":"hour","text":"The day before, at noon.","published_date":"2025-06-14T12"}
{"id":"zone","text":"The evening after, in Paris.","published_date":"2025-06-16T00:00+0100"}
{"id":"lower","text":"Lowercase t.","published_date":"2025-06-17t00:00"}
{"id":"year","text":"This year.","published_date":"2025"}
{"id":"last","text":"Last year.","published_date":"2024"}
{"id":"undated","text":"No date."}
JSONL
echo '"mites"' | ev-search-text --db kb.db -k 1 | ev-expand --db kb.db --timeline 6 --per-hit 6 |
	jq -c '[.id, (.evidence | map(select(.lane == "timeline") | .distance))]'
