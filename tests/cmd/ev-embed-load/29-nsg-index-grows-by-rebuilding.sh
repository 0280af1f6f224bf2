# Faiss builds an NSG graph once, of all its vectors, and adds to none: a
# later load that added vectors to an NSG32 index failed, exit 1, "NSG does
# not support incremental addition", every time, so that the index could not
# grow.  Such an index is now rebuilt from the store, as one that cannot
# remove ids is; search finds the vectors added.
# (Faiss's NSG build prints on standard output how many entries of its kNN
# graph its threaded search left empty, a count that varies from run to run:
# Faiss's note, not evkit's output, so it is left out here.)
exec 2>&1
case_body() {
	. "$CASEDIR/mkstore"; mkstore kb.db 120
	sqlite3 kb.db "SELECT id FROM chunks ORDER BY rowid" |
		awk '{ printf "{\"id\":\"%s\",\"vector\":[%d,%d,%d,1],\"model\":\"m1\"}\n", $1, NR % 7, NR % 11, NR % 13 }' >v.jsonl
	head -n 110 v.jsonl | ev-embed-load --db kb.db --index kb.faiss --factory NSG32 2>&1 | grep -v 'have no vector'
	tail -n 10 v.jsonl | ev-embed-load --db kb.db --index kb.faiss; echo "exit $?"
	# the last chunk's own vector finds it first
	tail -n 1 v.jsonl | jq -c '{query_id: .id, vector, model}' |
		ev-search-vec --db kb.db --index kb.faiss -k 1 | jq -r '[.query_id, .id] | @tsv'
}
case_body 2>&1 | grep -v '^WARNING: the input knn graph has'
