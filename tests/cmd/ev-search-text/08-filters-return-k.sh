# Filters apply inside the query, so k hits still come back: document ids,
# metadata equality (typed; an array is any of), date ranges.
exec 2>&1
. "$CASEDIR/mkstore"; mkstore kb.db
q='"query":"plate wing flat layer heat"'
for f in '{"doc_ids":["d1","d3","d4"]}' '{"doc_id":"d4"}' '{"metadata":{"lang":"en"}}' \
    '{"metadata":{"lang":["fr","de"]}}' '{"metadata":{"year":1958}}' '{"metadata":{"year":"1958"}}' \
    '{"published_date":{"from":"1960"}}' '{"published_date":{"to":"1960-11"}}' \
    '{"published_date":{"from":"1958-03-02","to":"1960"}}'; do
	printf '%s -> ' "$f"
	echo "{\"query_id\":1,$q,\"filters\":$f}" | ev-search-text --db kb.db -k 2 | jq -r .doc_id | tr '\n' ' '
	echo
done
