# A run killed after two committed batches keeps them; running it again
# completes and gives the same store as an uninterrupted run (ingested_at
# aside, and the stamp of its index's segments kept beside the totals of its
# chunk lengths), printing only the chunks the killed run had not printed.
for i in 1 2 3 4 5 6; do
	printf '{"id": "doc%d", "text": "Document number %d.\\n\\nIts second paragraph."}\n' $i $i
done > docs.jsonl
EV_INGEST_KILL_AFTER=2 ev-ingest --db killed.db --batch 2 docs.jsonl > first
echo "killed: status $?, printed $(wc -l < first)"
sqlite3 killed.db "SELECT count(*) FROM documents"
ev-ingest --db killed.db --batch 2 docs.jsonl | cut -d, -f1
ev-ingest --db clean.db docs.jsonl > /dev/null
q="SELECT doc_id, content_hash, length FROM documents ORDER BY doc_id;
SELECT rowid, id, content_hash FROM chunks ORDER BY rowid;
SELECT key, CASE key WHEN 'text_lengths' THEN substr(value, 66) ELSE value END
FROM meta ORDER BY key"
sqlite3 killed.db "$q" > a
sqlite3 clean.db "$q" | cmp - a && echo same store
