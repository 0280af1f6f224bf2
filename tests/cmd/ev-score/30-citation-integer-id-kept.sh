# A citation's id is a string or an integer (ev-score(1)): an integer id is
# kept, in decimal, where the details name the claim's citation; it was
# taken and silently dropped (the citation without its "id").  An id of
# another type is bad input (exit 2, FILE:LINE), said as such.
exec 2>&1
for id in 7 '"7"' -12; do
	printf '%s\n' "{\"query\":\"drag\",\"answer\":\"Turbulent flows cause drag.\",\"citations\":[\"Flows.\",{\"id\":$id,\"text\":\"Drag is caused by turbulent flow.\"}]}" |
		ev-score | jq -c '[.details.claims[].citation]'
done
for id in 1.5 '["a"]'; do
	printf '%s\n' "{\"query\":\"drag\",\"answer\":\"Turbulent flows cause drag.\",\"citations\":[{\"id\":$id,\"text\":\"Drag is caused by turbulent flow.\"}]}" >a.jsonl
	ev-score a.jsonl >/dev/null
	echo "exit $?"
done
