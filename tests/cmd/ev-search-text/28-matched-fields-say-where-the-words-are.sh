# A chunk found by words of its title or section title alone has a snippet
# without them: its evidence says where the query's words are
# ("matched_fields", present when its title or section title holds some of
# them), and the pack's exact_match badge says it in its label.
cat > notes.md <<'MD'
# Propolis in hives

Bees gather resin from buds and seal cracks with it.

## Winter

The colony keeps warm in a cluster.
MD
printf '%s\n' '{"id":"b","title":"Resin","text":"Propolis is a resin mixture that bees make; hives hold it."}' > b.jsonl
ev-ingest --db kb.db --quiet notes.md b.jsonl || exit 1
for q in propolis 'propolis resin' 'winter cluster' 'hives'; do
	echo "--- $q"
	printf '{"query_id":"q","query":"%s"}\n' "$q" | ev-search-text --db kb.db --feedback 0 > hits.jsonl
	jq -c '[.id, .evidence[0].matched_terms, .evidence[0].matched_fields]' hits.jsonl
	ev-pack < hits.jsonl | jq -r '.evidences[].badges[] | select(.badge == "exact_match") | [.label, (.fields // [] | join(","))] | @tsv'
done
