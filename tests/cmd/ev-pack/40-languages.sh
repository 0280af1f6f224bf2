# An EvidencePack's "language" takes zh, en or other (the EvidencePack
# format's values) from the chunk's language, and its metadata keeps the
# chunk's own code (ja, fr, ...); every pack valid against the schema.
top=$CASEDIR/../../..
ev-ingest --db kb.db --quiet "$TESTDATA/cjk/bees.jsonl" || exit 1
printf '"%s"\n' 蜂蜜 はちみつ "acide oxalique" | ev-search-text --db kb.db -k 3 | ev-pack -k 3 >packs.jsonl
/usr/bin/python3 "$top/scripts/validate-evidencepack.py" <packs.jsonl
jq -c '[.query, [.evidences[] | [.document_id, .language, .metadata.language]]]' packs.jsonl
