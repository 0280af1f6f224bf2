# Every id ev-ingest stores can be shown: one with a tab, a new line or
# U+0001 in it, and one longer than 4096 bytes, given as an argument or as a
# JSON string on stdin, and after a lane and ev-pack in a pipe.  In the text
# format and on stderr such a reference is written as a JSON string, which
# ev-show reads back.
exec 2>&1
long=$(printf '%05000d' 0)
printf '{"id": "a\\tb", "text": "Tabs in ids."}\n{"id": "c\\u0001d", "text": "A start of heading."}\n' >docs.jsonl
printf '{"id": "e\\nf", "text": "A new line."}\n{"id": "%s", "text": "A long id."}\n' "$long" >>docs.jsonl
ev-ingest --db kb.db --quiet docs.jsonl
echo "status $?"
ev-show --db kb.db "$(printf 'a\tb')" "$(printf 'chunk:a\tb:_top:0')" "$long:_top:0" >out.jsonl
echo "status $?"
jq -c '[.kind, (.id | if length > 100 then length else . end), .text]' out.jsonl
printf '"c\\u0001d"\n"doc:e\\nf"\n{"id": "c\\u0001d:_top:0"}\n' | ev-show --db kb.db >out.jsonl
echo "status $?"
jq -c '[.ref, .kind, .text]' out.jsonl
printf '"e\\nf:_top:0"\n"chunk:a\\tb:_top:9"\n' | ev-show --db kb.db --format text
echo "status $?"
echo '"tabs"' | ev-search-text --db kb.db | ev-pack >pack.jsonl
ev-show --db kb.db <pack.jsonl >out.jsonl
echo "status $?"
jq -c '[.ref, .text]' out.jsonl
