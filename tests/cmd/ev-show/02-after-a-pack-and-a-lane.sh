# ev-show follows ev-pack in a pipe (each evidence's raw.content_ref) and a
# lane (each hit's id); strings are references too.
cat >kb.md <<'DOC'
# Bees

Varroa mites are counted in spring.

## Sugar

Feed sugar syrup in autumn.
DOC
ev-ingest --db kb.db --quiet kb.md
echo '"varroa mites"' | ev-search-text --db kb.db -k 2 | ev-pack | ev-show --db kb.db | jq -c '[.ref, .text]'
echo '"sugar syrup"' | ev-search-text --db kb.db -k 1 | ev-show --db kb.db | jq -c '[.ref, .text]'
printf '"doc:kb.md"\n"kb.md:bees/sugar:0"\n' | ev-show --db kb.db - | jq -c '[.ref, .kind]'
