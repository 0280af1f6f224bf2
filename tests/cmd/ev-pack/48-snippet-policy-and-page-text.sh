# output.snippet_policy (--snippet-policy): l1 and auto the lanes' passage,
# l0 its sentence holding most of the query's marked words, l2 the chunk's
# whole text (from the store with --db; without it the passage, said l1 and
# explained in explain.ignored_fields); every stage reading the plan takes
# the key.  A visual lane's page hit gets its page's text from the store
# (--db), and a region hit joins its page's evidence when the page was
# found, else stands alone.  On a real PDF and store; the packs are valid.
mkdir docs
python3 "$CASEDIR/../ev-extract/mkpdf.py" pagebreak docs/hive.pdf
cat >docs/mites.md <<'END'
# Mites

Bees groom each other. Varroa mites feed on the bees' fat bodies! A sugar roll counts varroa mites on bees.
Treat the hive in autumn.
END
ev-ingest --db kb.db --quiet docs
echo '{"query_id":"q","query":"varroa mites sugar roll"}' >q.jsonl
ev-search-text --db kb.db -k 1 q.jsonl >text.jsonl
jq -c '[.id, .snippet]' text.jsonl
for policy in auto l1 l0 l2; do
	echo "--- $policy"
	ev-pack --snippet-policy "$policy" text.jsonl |
	    jq -c '.evidences[0] | [.snippet_policy, .snippet]'
done
echo "--- l2 without the store"
ev-pack --snippet-policy l2 text.jsonl >l2.pack
jq -c '[.evidences[0].snippet_policy, (.explain.ignored_fields[] | select(startswith("output.")))]' l2.pack
echo "--- l2 with the store"
ev-pack --snippet-policy l2 --db kb.db text.jsonl >l2db.pack
jq -c '[.evidences[0].snippet_policy, .evidences[0].snippet, [.explain.ignored_fields[] | select(startswith("output."))]]' l2db.pack
echo "--- the plan's key, taken by every stage that reads the plan"
printf 'output:\n  snippet_policy: l0\n' >plan.yaml
{ ev-search-text --config plan.yaml --db kb.db -k 1 q.jsonl | ev-fuse --config plan.yaml |
    ev-rerank --config plan.yaml --db kb.db | ev-pack --plan plan.yaml >plan.pack; } 2>stages.err
echo "status $? said: $(cat stages.err)"
jq -c '[.plan.output, .evidences[0].snippet_policy, .evidences[0].snippet]' plan.pack
printf 'output:\n  snippet_policy: l3\n' >bad.yaml
ev-pack --plan bad.yaml <text.jsonl 2>&1; echo "status $?"
echo "--- visual pages: the page's text with --db, nothing without"
printf '%s\n' \
    '{"id":"doc::docs/hive.pdf::page-1","vectors":[[1,0,0]],"model":"colpali-test","doc_id":"docs/hive.pdf","page":1}' \
    '{"id":"doc::docs/hive.pdf::page-2","vectors":[[0,1,0]],"model":"colpali-test","doc_id":"docs/hive.pdf","page":2}' >pages.jsonl
printf '%s\n' \
    '{"id":"doc::docs/hive.pdf::page-2::r1","vectors":[[0,1,0]],"model":"colpali-test","doc_id":"docs/hive.pdf","page":2,"bbox":[72,72,298,83]}' \
    '{"id":"doc::docs/hive.pdf::page-5::r1","vectors":[[0,1,0]],"model":"colpali-test","doc_id":"docs/hive.pdf","page":5,"bbox":[72,72,298,83]}' >regions.jsonl
ev-mv-load --index pages.mvi pages.jsonl 2>/dev/null
ev-mv-load --index regions.mvi --lane region regions.jsonl 2>/dev/null
echo '{"query_id":"v","query":"mites","vectors":[[0,1,0]]}' >v.jsonl
ev-search-mv --index pages.mvi v.jsonl >visual.jsonl
ev-pack --db kb.db visual.jsonl >visual.pack
jq -c '.evidences[] | [.id, .snippet]' visual.pack
ev-pack visual.jsonl | jq -c '.evidences[] | [.id, .snippet]'
echo "--- a region joins its page's evidence where the page was found"
ev-search-mv --index regions.mvi v.jsonl >region.jsonl
ev-fuse --method rrf visual.jsonl region.jsonl | ev-pack --db kb.db >fused.pack
jq -c '.evidences[] | [.id, [.evidence[] | [.lane, .page, .bbox]], [.badges[].badge]]' fused.pack
cat l2.pack l2db.pack plan.pack visual.pack fused.pack |
    /usr/bin/python3 "$CASEDIR/../../../scripts/validate-evidencepack.py"
