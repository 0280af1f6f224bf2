# --delete removes documents by id or by the file's path, --delete-source
# every document of a source; their chunks leave the text lane, their rowids
# go to chunk_tombstones and the vector lane stops returning them at once.
# A name that matches nothing is warned about; no input is read.
mkdir docs
echo "Rotate the client secret every ninety days." >docs/a.txt
echo "The client secret lives in the vault." >docs/b.txt
printf '%s\n' '{"id":"n1","text":"Client secret rotation is audited."}' \
    '{"id":"n2","text":"Backups run nightly."}' >notes.jsonl
ev-ingest --db kb.db --quiet docs notes.jsonl
ev-embed --db kb.db --train --dim 2 >/dev/null 2>&1
ev-ingest --db kb.db --all docs notes.jsonl | ev-embed --db kb.db 2>/dev/null |
    ev-embed-load --db kb.db --index kb.faiss 2>/dev/null
echo '"client secret"' >q.jsonl
lanes() {
	ev-search-text --db kb.db q.jsonl | jq -r .doc_id | sort | tr '\n' ' '; echo
	ev-embed --db kb.db --role query q.jsonl 2>/dev/null |
	    ev-search-vec --db kb.db --index kb.faiss -k 10 | jq -r .doc_id | sort | tr '\n' ' '; echo
}
lanes
ev-ingest --db kb.db --delete ./docs/a.txt n2 nosuch </dev/null
echo "exit $?"
sqlite3 kb.db "SELECT doc_id FROM documents ORDER BY doc_id; SELECT count(*) FROM chunk_tombstones"
lanes
ev-ingest --db kb.db --delete-source notes.jsonl
sqlite3 kb.db "SELECT doc_id, source FROM documents ORDER BY doc_id"
lanes
ev-ingest --db kb.db --delete 2>&1; echo "exit $?"
ev-ingest --db kb.db --delete --delete-source x 2>&1; echo "exit $?"
