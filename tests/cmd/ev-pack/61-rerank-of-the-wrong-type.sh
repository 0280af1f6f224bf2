# The rerank object ev-rerank writes on its hits ({"model", "config",
# "top_n"}) is held to its types: a model that is not a string, a top_n
# that is not a whole number from 0, a config that is not an object are
# bad input (exit 2, FILE:LINE, the field).  ev-pack took them: the model
# or top_n silently became null in explain.rerank, and a config of 7 (or
# null) was written there, where the EvidencePack's schema wants an object.
exec 2>&1
hit='{"query_id":"q","query":"mites","id":"d:_top:0","doc_id":"d","rank":1,"score":1,"lane":"text"'
for r in '{"model":5}' '{"model":"features","top_n":"x"}' '{"top_n":-1}' '{"top_n":2.5}' \
    '{"model":"features","config":7}' '{"config":[]}'; do
	printf '%s\n' "$hit,\"rerank\":$r}" >hits.jsonl
	ev-pack hits.jsonl >/dev/null
	echo "exit $?"
done
echo "-- a later hit of the query (the scanned path), whose rerank is not kept:"
printf '%s\n' "$hit,\"rerank\":{\"model\":\"features\"}}" "$hit,\"rerank\":{\"top_n\":\"x\"}}" |
	sed '2s/d:_top:0/d:_top:1/' | ev-pack >/dev/null
echo "exit $?"
echo "-- what ev-rerank writes, and nulls (absent):"
for r in '{"model":"features","config":{"weights":{"title":1}},"top_n":100}' \
    '{"model":null,"config":null,"top_n":null}'; do
	printf '%s\n' "$hit,\"rerank\":$r}" | ev-pack | jq -c '.explain.rerank'
done
