# Shards of French notes rank as one store, a repaired typo included: the
# repair's stem ("ruch", of "ruchess") is counted in the statistics under
# its language's tag, as the index holds it, and its IDF is the sum of its
# forms (untagged, or tagged with a stemming language), as one store's is.
export EV_FIXED_TIME=2026-11-29T02:10:33.123Z	# the lanes' stamp (retrieved_at), pinned
mkdir a b all
printf '# Abeilles\n\nLes abeilles vont au champ. La propolis protège la ruche.\n' >a/abeilles.md
printf '# Miel\n\nLe miel est récolté quand la ruche est pleine.\n' >b/miel.md
printf '# Cire\n\nLa cire des abeilles.\n' >b/cire.md
cp a/* b/* all/
for s in a b all; do (cd $s && ev-ingest --db ../$s.db --quiet .) || exit 1; done
printf '%s\n' '{"query_id":"q1","query":"ruchess abeilles"}' > q.jsonl
for s in a b; do ev-search-text --db $s.db --stats-out $s.stats q.jsonl || exit 1; done
ev-search-text --stats a.stats --stats b.stats --stats-out sum.stats || exit 1
for s in a b; do ev-search-text --db $s.db --stats sum.stats q.jsonl > $s.hits || exit 1; done
ev-search-text --db all.db q.jsonl | ev-fuse --method merge > one.hits
ev-fuse --method merge a.hits b.hits > merged.hits
jq -c '[.doc_id, .rank, (.score * 1e10 | round), .evidence[0].fuzzy[0].expansion]' merged.hits
cmp one.hits merged.hits && echo "merged shards = one store, byte for byte"
