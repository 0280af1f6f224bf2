# A --db that is not a store (a directory, a file of something else, a path
# in no directory) is bad usage: exit 2 with what to do, for every command
# that opens the store; nothing is created.
mkdir dir
echo 'not a database' >junk.db
echo '{"id":"d1","text":"x"}' >doc.jsonl
echo '"x"' >q.jsonl
for db in dir junk.db no/such/dir/kb.db; do
	ev-ingest --db $db doc.jsonl; echo "ev-ingest $?"
	ev-search-text --db $db q.jsonl; echo "ev-search-text $?"
	ev-search-vec --db $db --index x.faiss q.jsonl; echo "ev-search-vec $?"
	ev-embed --db $db q.jsonl; echo "ev-embed $?"
	ev-embed --db $db --train; echo "ev-embed --train $?"
	ev-embed-load --db $db --index x.faiss q.jsonl; echo "ev-embed-load $?"
	echo '{"query":"x","answer":"x","citations":["x"]}' | ev-score --db $db; echo "ev-score $?"
done 2>&1
ls
