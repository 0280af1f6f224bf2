# A lane's name is 1 to 31 lowercase letters, digits, '_' or '-', as every
# evkit lane names itself: a plan's weight for 'TEXT' (or --weight, --floor,
# --anchor, --agreement-from naming it) weighed a lane no hit names, without
# a word, and the fusion ran with the default weights.  It is bad usage now,
# and a hit whose lane is 'Text' is bad input.
printf 'fusion:\n  method: weighted\n  weights:\n    TEXT: 2\n    vector: 1\n' >plan.yaml
ev-fuse --config plan.yaml "$CASEDIR/text.jsonl" "$CASEDIR/vector.jsonl"
echo "exit $?"
for o in "--weight TEXT=2" "--floor Vector=zero" "--anchor TEXT" "--agreement-from vector=TEXT"; do
	ev-fuse --method weighted $o "$CASEDIR/text.jsonl" 2>&1 | head -1
done
sed 's/"lane":"text"/"lane":"Text"/' "$CASEDIR/text.jsonl" | ev-fuse
echo "exit $?"
echo "-- the lower-case names weigh as before:"
printf 'fusion:\n  method: weighted\n  weights:\n    text: 2\n    vector: 1\n' >plan.yaml
ev-fuse --config plan.yaml "$CASEDIR/text.jsonl" "$CASEDIR/vector.jsonl" | head -1 | jq -c '[.id, .score, .explain.weights]'
