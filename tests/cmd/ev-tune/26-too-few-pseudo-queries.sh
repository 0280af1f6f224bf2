# Without --qrels, ev-tune makes its pseudo-queries of the store's chunks'
# sentences of 6 to 40 words.  A store with fewer than two such chunks was
# refused as "no query is judged: the qrels name none of the queries' ids"
# (or "only one query is judged"), blaming qrels nobody gave.  It says now
# how many it could make and what to do; exit 2, the store untouched.
exec 2>&1
printf '%s\n' '{"id":"d1","text":"Bees."}' | ev-ingest --db none.db --quiet
printf '%s\n' '{"id":"d1","text":"Bees."}' \
	'{"id":"d2","text":"A colony of honey bees keeps its hive warm through the winter."}' |
	ev-ingest --db one.db --quiet
for db in none.db one.db; do
	before=$(sqlite3 "$db" .dump | cksum)
	ev-tune --db "$db" >plan.yaml; echo "exit $?"
	wc -c <plan.yaml
	[ "$(sqlite3 "$db" .dump | cksum)" = "$before" ] && echo "store unchanged"
done
