# A routed plan that ev-hybrid cannot run is refused before any lane runs
# (exit 2): a lane it does not have, the structured lane without its SQL, a
# gate on the confidence of expansion (which finds nothing of its own).
# Without --index, the queries routed to the vector lane are answered from
# their other lanes, and the packs say so.
. "$CASEDIR/store.inc"
printf '"panel flutter"\n"a map of wings"\n' >q.jsonl
printf 'routing:\n  rules:\n    - {lanes: [visual], cues: [map]}\n' >visual.yaml
"$hybrid" --db db --plan visual.yaml -f q.jsonl
echo "status $?"
printf 'routing:\n  default: [text]\n  rules:\n    - {lanes: [structured], cues: [map]}\n' >nosql.yaml
"$hybrid" --db db --plan nosql.yaml -f q.jsonl
echo "status $?"
printf 'routing:\n  default: [text, expand]\n  gate: {lane: text, on: expand, below: 0.5}\n' >gate.yaml
"$hybrid" --db db --plan gate.yaml -f q.jsonl
echo "status $?"
printf 'routing:\n  default: [text, vector]\n  rules:\n    - {lanes: [text], cues: [map]}\n' >novec.yaml
"$hybrid" --db db --plan novec.yaml --keep k -f q.jsonl | jq -c '[.query_id, (.evidences | length > 0), .warnings]'
echo "status $?"
jq -c '[.query_id, .lanes]' k/routed.jsonl
wc -l <k/vector.jsonl
# the vector lane fails (an index that is not there): the same, with its message
"$hybrid" --db db --index no-such-index --plan novec.yaml -f q.jsonl 2>err.txt | jq -c '[.query_id, .warnings[0]]'
echo "status $?"
cat err.txt
