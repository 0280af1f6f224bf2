# --db: idf from the store's vocabulary.  Four chunks all hold "alpha" (one
# as "Alphas": the same stem): idf 1 + ln(5/5) = 1; beta and gamma are in
# none: 1 + ln(5/1) = 2.6094; cosine of "alpha beta" / "alpha gamma" =
# 1 / (1 + 2.6094^2) = 0.1281 (0.3361 with idf from the two citations).
# The store is only read: its bytes are unchanged.  A file that is not a
# store exits 2.
printf '%s\n' '{"id":"d1","text":"Alpha one."}' '{"id":"d2","text":"Alpha two."}' \
    '{"id":"d3","text":"Alpha three."}' '{"id":"d4","text":"Alphas."}' | ev-ingest --db kb.db --quiet
before=$(cksum <kb.db)
r='{"query_id":"o","query":"alpha","answer":"Alpha.","citations":["alpha beta","alpha gamma"]}'
echo "$r" | ev-score --db kb.db | jq -c '{redundancy, idf: .details.idf}'
echo "$r" | ev-score | jq -c '{redundancy, idf: .details.idf}'
printf 'db: kb.db\n' >score.yaml
echo "$r" | ev-score --config score.yaml | jq -c '{redundancy, idf: .details.idf}'
[ "$(cksum <kb.db)" = "$before" ] && echo "store unchanged"
echo 'not a database' >junk.db
echo "$r" | ev-score --db junk.db 2>&1
echo "status $?"
