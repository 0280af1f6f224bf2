# An EvidencePack's query, short of a top-level "query", is the first
# evidence's provenance.query_text, else plan.query, else plan.query_text.
# One of these (or a provenance, or the plan) of another type was passed
# over unsaid: the pack was scored against the next evidence's query, or
# against none ("empty query: coverage is 0").  Such a record is bad input
# (exit 2, FILE:LINE); null is absent, as it was.
exec 2>&1
ev='"evidences":[{"id":"d1","snippet":"Drag is caused by turbulent flow."'
answer='"answer":"Turbulent flow causes drag."'
for rest in ',"provenance":{"query_text":5}},{"id":"d2","snippet":"Pipes.","provenance":{"query_text":"pipes"}}]' \
    ',"provenance":"turbulent flow"}]' '}],"plan":["turbulent flow"]' \
    '}],"plan":{"query":{"text":"turbulent flow"}}' '}],"plan":{"query_text":7}'; do
	printf '%s\n' "{$ev$rest,$answer}" >pack.jsonl
	ev-score pack.jsonl
	echo "exit $?"
done
echo "-- null is absent, a string is the query:"
printf '%s\n' "{$ev,\"provenance\":{\"query_text\":null}}],\"plan\":{\"query\":null,\"query_text\":\"turbulent flow\"},$answer}" \
	"{$ev,\"provenance\":null}],\"plan\":{\"query\":\"turbulent flow\"},$answer}" |
	ev-score | jq -c '[.coverage, .details.query_terms]'
