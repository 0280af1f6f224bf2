# Ranking the chunks by cosine with each query finds the document on its topic
# (--min-df 1: in eight documents most words occur once).
ev-ingest --db kb.db "$CASEDIR/docs.jsonl" > chunks.jsonl
ev-embed --db kb.db --train --dim 6 --min-df 1 > /dev/null
ev-embed --db kb.db < chunks.jsonl > docs.vec
ev-embed --db kb.db "$CASEDIR/queries.jsonl" > queries.vec
jq -n -r --slurpfile d docs.vec --slurpfile q queries.vec '
	$q[] as $qq | [$d[] | {doc_id, s: ([.vector, $qq.vector] | transpose | map(.[0] * .[1]) | add)}]
	| max_by(.s) | "\($qq.query_id) \(.doc_id)"'
