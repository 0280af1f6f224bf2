# A rank inside evidence[] and explain.lanes[] follows the rule of a hit's
# own rank and its rank signals: a whole number written as a real (3.0, as
# a JavaScript writer writes 3) is that integer; 2.5, 0 or below is bad
# input (exit 2, FILE:LINE, the field).  Such a rank of 3.0 was refused
# ("must be an integer (without a decimal point)") by every stage, while a
# hit's rank of 3.0 was taken.
exec 2>&1
printf '%s\n' '{"id":"d","text":"Mites rose in March."}' | ev-ingest --db kb.db --quiet
good='"query_id":"q","query":"mites","doc_id":"d","id":"d:_top:0","score":1'
ev='"evidence":[{"lane":"text","rank":3.0,"score":1}]'
lanes='"explain":{"lanes":[{"lane":"text","found":true,"rank":3.0,"score":1},{"lane":"vector","found":true,"rank":1e1,"score":0.5}]}'
printf '%s\n' "{$good,\"lane\":\"text\",\"rank\":2,$ev}" >ev.jsonl
printf '%s\n' "{$good,\"lane\":\"fused\",\"rank\":1,$lanes}" >lanes.jsonl
# (the ranks as written: jq would show 3.0 as 3)
echo "-- evidence: ev-fuse writes 3; ev-pack (first hit, later hit), ev-expand and ev-rerank read 3"
ev-fuse ev.jsonl | grep -o '"evidence":\[[^]]*\]'
ev-pack ev.jsonl | grep -o '"evidence":\[[^]]*\]'
printf '%s\n' '{"query_id":"q","query":"mites","doc_id":"e","id":"e:_top:0","score":2,"lane":"text","rank":1}' \
    "$(cat ev.jsonl)" | ev-pack | grep -o '"evidence":\[[^]]*\]'
ev-expand --db kb.db ev.jsonl | grep '"d:_top:0"' | grep -o '"rank":[^,]*'
ev-rerank --db kb.db ev.jsonl | grep -o '"evidence":\[[^]]*\]'
echo "-- explain.lanes: ev-pack's evidence and ev-rerank's rank feature as for 3 and 10"
ev-pack lanes.jsonl | grep -o '"evidence":\[[^]]*\]'
ev-rerank --db kb.db lanes.jsonl | jq -c '.explain.rerank.features | [.text_rank, .vector_rank]'
sed 's/"rank":3.0/"rank":3/; s/"rank":1e1/"rank":10/' lanes.jsonl | ev-rerank --db kb.db |
	jq -c '.explain.rerank.features | [.text_rank, .vector_rank]'
echo "-- 2.5, 0 and -1.0 are refused"
for r in 2.5 0 -1.0; do
	sed "s/\"rank\":3.0/\"rank\":$r/" ev.jsonl >bad-ev.jsonl
	sed "s/\"rank\":3.0/\"rank\":$r/" lanes.jsonl >bad-lanes.jsonl
	for cmd in "ev-pack" "ev-fuse" "ev-rerank --db kb.db"; do
		$cmd bad-ev.jsonl >/dev/null
		echo "exit $?"
	done
	ev-pack bad-lanes.jsonl >/dev/null
	echo "exit $?"
done
