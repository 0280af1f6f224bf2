# :NAME comes from the query record's filters, :query from its text; an
# absent filter is NULL; an INTEGER PRIMARY KEY stands for the rowid; every
# column but the id makes the snippet; a BLOB is shown by its length.
export EV_FIXED_TIME=2026-11-29T02:10:33.123Z	# the lanes' stamp (retrieved_at), pinned
sqlite3 p.db <"$CASEDIR/policies.sql"
printf '%s\n' '{"query_id":"q1","query":"varroa","filters":{"criterion":"4.2%","since":2022}}' \
	'{"query_id":"q2","query":"any","filters":{"criterion":"4.2%"}}' |
ev-search-sql --db p.db --sql 'SELECT id, name, criterion, body FROM policy
	WHERE criterion LIKE :criterion AND (:since IS NULL OR year >= :since) ORDER BY year DESC, id'
