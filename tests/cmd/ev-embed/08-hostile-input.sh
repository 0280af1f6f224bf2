# Hostile input: a clear message and exit 2, never a crash or a hang.
exec 2>&1
ev-ingest --db kb.db --quiet "$CASEDIR/docs.jsonl"
ev-embed --db kb.db --train --dim 4 > /dev/null
t() { ev-embed --db kb.db > /dev/null; echo "exit $?"; }
printf '{"text": "wing' | t
printf '{"text": "wi\377ng"}\n' | t
printf '{"text": "wi\000ng"}\n' | t
printf '{"text": "wing"}\000\n' | t
awk 'BEGIN { for (i = 0; i < 100000; i++) printf "["; print "" }' | t
printf '{"text": 5}\n' | t
printf '{"text": "wing", "title": ["x"]}\n' | t
printf '{"query": null}\n' | t
printf '{"query": "wing", "query_id": 1.5}\n' | t
printf '[1, 2]\n' | t
printf '42\n' | t
printf 'NaN\n' | t
printf '\377\376\375\n' | t
head -c 3000000 /dev/zero | tr '\0' 'a' | awk '{ print "{\"text\":\"" $0 " wing\"}" }' | t
awk 'BEGIN { printf "{\"text\":\""; for (i = 0; i < 200000; i++) printf "w%d ", i; print "wing\"}" }' |
	ev-embed --db kb.db | jq -c '{n: (.vector | length)}'
