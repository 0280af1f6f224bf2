# With a plan that routes (samples/plan-routed.yaml), each query runs only the
# lanes it is routed to: by the query's tab (q5, q6), a pattern (q3), cue
# words (q4) or the default (q1, q2).  The vector lane is gated on the text
# lane's confidence, (s1 - s2) / s1 below 0.1: it runs for q1 and q4 (their
# best text hits score alike), not for q2 (confident).  The structured lane
# (SQL over the store) runs for q3 and q5, expansion for q4 and q6.  The
# lanes that ran are fused; the routed queries, each with its routing object,
# are what ev-pack reads.
top=$CASEDIR/../../..
hybrid=$top/scripts/ev-hybrid
cp -R "$SAMPLES" samples
ev-ingest --db kb.db --quiet samples/ 2>/dev/null
ev-embed --db kb.db --train >/dev/null 2>&1
ev-ingest --db kb.db --all samples/ 2>/dev/null | ev-embed --db kb.db |
	ev-embed-load --db kb.db --index kb.faiss 2>/dev/null
cat >q.jsonl <<'END'
{"query_id":"q1","query":"how do I install docker on my ubuntu laptop"}
{"query_id":"q2","query":"rotate a leaked client secret"}
{"query_id":"q3","query":"error 409 conflict when creating an order"}
{"query_id":"q4","query":"replication lag during a failover"}
{"query_id":"q5","query":"rate limits","tab":"api"}
{"query_id":"q6","query":"rolling back a release","tab":"runbooks"}
END
"$hybrid" --db kb.db --index kb.faiss --plan samples/plan-routed.yaml --keep keep -f q.jsonl >packs.jsonl
echo "status $?"
ls keep | tr '\n' ' '; echo
echo "-- routed.jsonl (ev-pack's queries):"
jq -c '[.query_id, .lanes, .routing]' keep/routed.jsonl
echo "-- the queries each lane ran for:"
for lane in text vector structured; do
	printf '%s: %s\n' $lane "$(jq -r .query_id keep/$lane.jsonl | uniq | tr '\n' ' ')"
done
echo "-- the lanes that found each query's fused hits:"
jq -r '[.query_id, (.explain.lanes | map(select(.found).lane) | sort | join("+"))] | @tsv' keep/fused.jsonl |
	sort -u | awk '{ a[$1] = a[$1] " " $2 } END { for (q in a) print q ":" a[q] }' | sort
echo "-- hits added by expansion:"
jq -r 'select(.lane != "fused") | [.query_id, .lane] | @tsv' keep/expanded.jsonl | sort | uniq -c
echo "-- packs:"
/usr/bin/python3 "$top/scripts/validate-evidencepack.py" <packs.jsonl
jq -c '[.query_id, (.evidences | length), (.evidences[0].signals | keys)]' packs.jsonl
echo "-- each pack's explain.routing, and each evidence's routing, is its query's routing:"
jq -c --slurpfile q keep/routed.jsonl '.query_id as $id | ($q[] | select(.query_id == $id) | .routing) as $r |
	[$id, .explain.routing == $r, all(.evidences[]; .routing == $r)]' packs.jsonl
echo "-- mode merge: the vector lane runs for every query routed to it, merged only below 0.1:"
sed 's/mode: run /mode: merge/' samples/plan-routed.yaml >merge.yaml
"$hybrid" --db kb.db --index kb.faiss --plan merge.yaml --keep merge -f q.jsonl >/dev/null
echo "status $?"
jq -c '[.query_id, .routing.gate.decision]' merge/routed.jsonl | tr '\n' ' '; echo
printf 'ran: %s\n' "$(jq -r .query_id merge/vector.jsonl | uniq | tr '\n' ' ')"
printf 'fused: %s\n' "$(jq -r 'select(.explain.lanes[] | .lane == "vector" and .found) | .query_id' merge/fused.jsonl |
	uniq | tr '\n' ' ')"
