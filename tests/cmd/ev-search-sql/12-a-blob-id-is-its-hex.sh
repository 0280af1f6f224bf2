# An id column holding blobs: each id is the blob as SQL writes it,
# TABLE:x'00ff'.  Two blobs of one length were both
# 'policy:{"blob_bytes":2}', one hit to the stages after.
sqlite3 p.db <"$CASEDIR/policies.sql"
sqlite3 p.db "INSERT INTO policy(name, criterion, year, body) VALUES ('Queen check', '4.2 queen', 2024, x'0100')"
echo '{"query_id":"q","query":"x"}' |
	ev-search-sql --db p.db --id-column body --sql "SELECT body, name FROM policy WHERE body IS NOT NULL" |
	jq -c '[.id, .doc_id, .evidence[0].row, .snippet]'
