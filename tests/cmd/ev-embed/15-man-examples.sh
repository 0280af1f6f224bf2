# The EXAMPLES of man/ev-embed.1, as written there.
mkdir docs
jq -r '"\(.id)\t\(.title). \(.text)"' "$CASEDIR/docs.jsonl" |
	while IFS='	' read -r id text; do printf '%s\n' "$text" > "docs/$id.txt"; done
ev-ingest --db kb.db --all docs/ > chunks.jsonl
ev-embed --db kb.db --train --dim 128 2>/dev/null | jq -c '{dim}'
ev-embed --db kb.db < chunks.jsonl |
    ev-embed-load --db kb.db --index kb.faiss 2>/dev/null
echo '"heat transfer in hypersonic flow"' |
    ev-embed --db kb.db | ev-search-vec --db kb.db --index kb.faiss -k 5 | jq -r '"\(.rank) \(.doc_id)"'
ev-ingest --db kb.db --quiet docs/
ev-embed --db kb.db --drift > /dev/null || ev-embed --db kb.db --train
ev-embed --db kb.db --pending | ev-embed-load --db kb.db --index kb.faiss
