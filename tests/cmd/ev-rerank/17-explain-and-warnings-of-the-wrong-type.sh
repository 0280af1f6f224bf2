# A hit's explain must be an object and its warnings an array of strings
# when given (null is absent), in every stage that reads hits: ev-rerank
# wrote its explain.rerank over an explain of another type, and its warning
# over such warnings, dropping them unsaid.  Such a hit is bad input
# (exit 2, FILE:LINE), in ev-expand too.
exec 2>&1
. "$CASEDIR/store.inc"
echo '{"query_id":"q1","query":"varroa mites"}' | ev-search-text --db kb.db -k 2 --feedback 0 >hits.jsonl
for f in '.explain = 5' '.explain = []' '.warnings = "late"' '.warnings = [1]'; do
	jq -c "$f" hits.jsonl >bad.jsonl
	ev-rerank --db kb.db bad.jsonl >/dev/null
	echo "exit $?"
	ev-expand --db kb.db bad.jsonl >/dev/null
	echo "exit $?"
done
echo "-- null is absent:"
jq -c '.explain = null | .warnings = null' hits.jsonl | ev-rerank --db kb.db | jq -c '[.id, (.explain.rerank | type)]'
