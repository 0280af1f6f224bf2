# A plan whose vector lane's key has the wrong type (lanes.vector.feedback:
# x) made the vector lane fail, which ev-hybrid took for the lane being
# unavailable: it answered from the text lane alone and exited 0.  The plan
# is checked whole before anything runs now (ev-pack --plan-get checks every
# stage's keys): bad input, exit 2, the key and its line named, no pack.
. "$CASEDIR/store.inc"
for bad in 'feedback: x' 'feedback: 3\n    feedback_weight: [1]'; do
	printf "lanes:\n  vector:\n    $bad\n" >plan.yaml
	"$hybrid" --db db --index idx --plan plan.yaml flutter >packs.jsonl 2>err.txt
	echo "status $?"
	cat err.txt
	wc -l <packs.jsonl
done
# a good one still runs its three lanes
printf 'lanes:\n  vector:\n    feedback: 2\n' >plan.yaml
"$hybrid" --db db --index idx --plan plan.yaml flutter | jq -c '[(.explain.fusion.weights | keys), (.evidences | length), .warnings]'
