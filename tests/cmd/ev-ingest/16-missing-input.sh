# A missing input is exit 2, before the store is touched.
ev-ingest --db kb.db nosuch.jsonl
echo "status $?" >&2
ls
