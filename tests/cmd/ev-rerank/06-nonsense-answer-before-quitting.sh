# A reranking command that answers nonsense and quits before it has read
# every candidate (echo garbage, with candidates past a pipe's buffer) is
# told as answering nonsense, not as having quit, however the race between
# its answer and its exit falls; the hits keep their incoming order.
long=$(head -c 3000 /dev/zero | tr '\0' 'x')
i=0
while [ $i -lt 60 ]; do
	i=$((i + 1))
	printf '{"id":"d%02d","text":"secret %s"}\n' $i "$long"
done >docs.jsonl
ev-ingest --db kb.db --quiet docs.jsonl
echo '"secret"' | ev-search-text --db kb.db -k 40 >hits.jsonl
for try in 1 2 3 4 5 6 7 8; do
	ev-rerank --db kb.db --command 'echo garbage' hits.jsonl 2>err >out
	echo "status $? $(cut -c1-110 err)"
	[ "$(jq -r .id out)" = "$(jq -r .id hits.jsonl)" ] && echo "incoming order kept"
done | sort | uniq -c
