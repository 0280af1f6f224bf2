# The EXAMPLES of ev-ingest(1) work as written.
cp -r "$SAMPLES" samples
ev-ingest --db kb.db samples | wc -l
ev-ingest --db kb.db samples | wc -l
printf '{"id": "n1", "text": "Rotate keys every 90 days."}\n' |
    ev-ingest --db kb.db > chunks.jsonl
cut -c1-40 chunks.jsonl
