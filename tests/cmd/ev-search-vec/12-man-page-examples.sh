exec 2>&1
# The EXAMPLES of ev-embed-load(1) and ev-search-vec(1), on the samples
# (ingested as "samples/...", so that the document ids do not depend on
# where the tree is).
db=$(pwd)/kb.db index=$(pwd)/kb.faiss
cd "$SAMPLES/.."
ev-ingest --db "$db" --quiet samples
ev-embed --db "$db" --train --dim 32 > /dev/null
ev-ingest --db "$db" --all samples | ev-embed --db "$db" | ev-embed-load --db "$db" --index "$index" 2>&1 |
	sed 's/[0-9][0-9]* added/N added/; s/holds [0-9]* vectors/holds N vectors/; s|'"'$index'"'|INDEX|'
cd "$OLDPWD"
echo '"manual database failover with patroni"' | ev-embed --db kb.db --role query |
    ev-search-vec --db kb.db --index kb.faiss -k 10 > hits.jsonl
jq -r '[.rank, .doc_id, .lane] | @tsv' hits.jsonl | head -1
jq -r 'select(.snippet | test("«[Pp]atroni»")) | .doc_id' hits.jsonl | sort -u
ev-embed --db kb.db --role query < "$SAMPLES/queries.jsonl" |
    jq -c '.filters = {"doc_ids": ["samples/runbooks/database-failover.md", "samples/notes/oncall-tips.txt"]}' |
    ev-search-vec --db kb.db --index kb.faiss | jq -r .doc_id | sort | uniq -c
ev-embed-load --db kb.db --index kb.faiss --factory HNSW32 < /dev/null 2>&1 | sed 's/holds [0-9]* vectors/holds N vectors/'
