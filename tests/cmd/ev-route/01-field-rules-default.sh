# The routing field decides first, then the first rule that matches (cues are
# whole words or phrases in any case; a pattern is a regular expression),
# then the default lanes.  --lane keeps the queries routed to one lane.
printf '%s\n' '"show the site plan of the apiary"' '"what does Criterion 4.2 say"' \
	'{"query_id":"t","query":"a map of hives","tab":"maps"}' '{"query_id":"u","query":"x","tab":"other"}' \
	'"Maps and diagrams"' '"a DIAGRAM please"' >q.jsonl
ev-route --config "$CASEDIR/plan.yaml" q.jsonl
echo "-- structured:"
ev-route --config "$CASEDIR/plan.yaml" --lane structured q.jsonl | jq -c .query_id
echo "-- no plan, --default:"
ev-route --default text q.jsonl | jq -c '[.query_id, .lanes]' | head -2
