# A word's count in the statistics is that of the chunks its query matches,
# which its languages decide: "systeme" in a query of German is searched as
# its German stem (and, for the English chunks, its English one), in a
# query of no language as its stem in each of the store's languages.  The two are counted apart ("[de] system", "[*]
# system"), so that one store ranked with its own statistics (--stats-out,
# then --stats) ranks as it does without them, for both queries.
export EV_FIXED_TIME=2026-11-29T02:10:33.123Z	# the lanes' stamp (retrieved_at), pinned
exec 2>&1
cat > docs.jsonl <<'DOCS'
{"id":"e1","language":"en","text":"The computer system runs every night on the systems of the lab."}
{"id":"e2","language":"en","text":"A quiet morning walk along the river bank."}
{"id":"f1","language":"fr","text":"Le système informatique tourne chaque nuit."}
{"id":"g1","language":"de","text":"Das System läuft jede Nacht im Labor."}
{"id":"g2","language":"de","text":"Die Systeme laufen. Ein ruhiger Morgen am Fluss."}
DOCS
ev-ingest --db kb.db --quiet docs.jsonl || exit 1
printf '%s\n' '{"query_id":"de","query":"systeme","language":"de"}' \
	'{"query_id":"any","query":"systeme"}' > q.jsonl
ev-search-text --db kb.db --stats-out s.stats q.jsonl || exit 1
head -1 s.stats; grep '^phrase' s.stats
ev-search-text --db kb.db --feedback 0 q.jsonl > own.hits || exit 1
ev-search-text --db kb.db --feedback 0 --stats s.stats q.jsonl > stats.hits || exit 1
jq -c '[.query_id, .doc_id, .rank, .score]' stats.hits
cmp own.hits stats.hits && echo "ranked with its own statistics = ranked without them, byte for byte"
