# --lane (or lanes.visual.lane in a plan) may not take the name of a lane
# another evkit command writes hits of, as ev-mv-load's --lane may not: a
# late-interaction lane named "text" had its hits fused by ev-fuse as the
# text lane's.  It was refused by ev-mv-load and taken by ev-search-mv.
# Exit 2, nothing written.
exec 2>&1
ev-mv-load --index pages.mvi "$CASEDIR/records.jsonl" > /dev/null 2>&1
for lane in text vector vector_feedback fused structured Visual; do
	echo '{"vectors":[[0,0,1]]}' | ev-search-mv --index pages.mvi --lane $lane; echo "exit $?"
done
printf 'lanes:\n  visual:\n    lane: text\n' > plan.yaml
echo '{"vectors":[[0,0,1]]}' | ev-search-mv --index pages.mvi --config plan.yaml; echo "exit $?"
echo '{"vectors":[[0,0,1]]}' | ev-search-mv --index pages.mvi --lane colpali | jq -r .lane
