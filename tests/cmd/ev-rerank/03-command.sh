# An external model: the command reads one JSON line per candidate (query,
# id, the chunk's title and text from the store) and answers a score per
# line, in batches; here the score is the text's length, so the longest
# text comes first.  Each hit says the model is the command.
. "$CASEDIR/store.inc"
echo '{"query_id":"q1","query":"varroa mites"}' | ev-search-text --db kb.db -k 10 --feedback 0 >text.jsonl
cat >score.sh <<'SH'
#!/bin/sh
# one answer per line, each as soon as it is ready; the requests are kept
tee -a requests.jsonl | jq --unbuffered -c '{id, score: (.text | length)}'
SH
ev-rerank --db kb.db --batch 2 --command 'sh score.sh' text.jsonl >out.jsonl
echo "exit $?"
jq -c '[.rank, .id, .score, .explain.rerank.incoming_rank]' out.jsonl
head -1 out.jsonl | jq -c '.rerank'
head -2 requests.jsonl | jq -c '[.query_id, .query, .id, .title, (.text | length)]'
wc -l <requests.jsonl
