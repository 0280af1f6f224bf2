# A hit's title and text are what --command is sent of it (the store's,
# when it holds the chunk): one of another type than a string was sent as
# "" (or the text as the snippet), and the command scored a candidate it
# never saw.  Such a hit is bad input (exit 2, FILE:LINE); --skip-invalid
# skips it, and the others are reranked.  Null is absent; the built-in
# model, which reads neither, takes the hit.
exec 2>&1
. "$CASEDIR/store.inc"
echo '{"query_id":"q1","query":"varroa mites"}' | ev-search-text --db kb.db -k 2 --feedback 0 >hits.jsonl
printf '#!/bin/sh\njq --unbuffered -c "{id, score: 1}"\n' >score.sh
for f in '.title = 5' '.text = ["a"]'; do
	jq -c "if .rank == 2 then $f else . end" hits.jsonl >bad.jsonl
	ev-rerank --db kb.db --command 'sh score.sh' bad.jsonl >/dev/null
	echo "exit $?"
done
ev-rerank --db kb.db --command 'sh score.sh' --skip-invalid bad.jsonl | jq -c '[.rank, .id]'
echo "exit $?"
echo "-- null is absent; the built-in model takes it:"
jq -c '.title = null | .text = null' hits.jsonl | ev-rerank --db kb.db --command 'sh score.sh' | jq -c .rank
ev-rerank --db kb.db bad.jsonl | jq -c .rank
