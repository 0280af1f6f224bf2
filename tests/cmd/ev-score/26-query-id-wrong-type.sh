# A query_id names the item in its score record, the gates' messages and the
# summary's failed_ids: a string or an integer, as in every other record.
# An object, array, boolean or fraction is bad input (exit 2 naming the
# line), not copied into the score record and named '?' by a failing gate.
for id in '{"a":1}' '[1]' 'true' '1.5'; do
	printf '{"query_id":%s,"query":"flow","answer":"The moon.","citations":["flow"]}\n' "$id" |
		ev-score --min-faithfulness 0.5 2>&1 >/dev/null
	echo "status $?"
done
# A string, an integer, null (the line number) and none are fine.
printf '%s\n' '{"query_id":"q","query":"flow","answer":"Flow.","citations":["flow"]}' \
	'{"query_id":7,"query":"flow","answer":"Flow.","citations":["flow"]}' \
	'{"query_id":null,"query":"flow","answer":"Flow.","citations":["flow"]}' \
	'{"query":"flow","answer":"Flow.","citations":["flow"]}' | ev-score | jq -c '[.query_id, .overall]'
