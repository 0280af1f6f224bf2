# metadata.pages must number the pages upward in text order, each page's
# text after the one before it, and metadata.lines must follow the pages in
# text order, as ev-extract writes them: pages 2 then 1 over the same text,
# or a line of page 2 before a line of page 1, were stored, and chunks got a
# page after their page_end.  Bad input named by its entry, exit 2, the
# store as it was; ev-extract's own order is stored.
exec 2>&1
printf '%s\n' '{"id":"ok","text":"kept"}' | ev-ingest --db kb.db --quiet
sqlite3 kb.db .dump > before
t='"text":"First page words.\n\nSecond page words."'
p1='{"page":1,"offset_start":0,"offset_end":17}' p2='{"page":2,"offset_start":19,"offset_end":37}'
l1='{"page":1,"offset_start":0,"offset_end":17,"bbox":[1,2,3,4]}'
l2='{"page":2,"offset_start":19,"offset_end":37,"bbox":[1,2,3,4]}'
for m in \
    '"pages":[{"page":2,"offset_start":0,"offset_end":17},{"page":1,"offset_start":19,"offset_end":37}]' \
    '"pages":[{"page":1,"offset_start":0,"offset_end":17},{"page":1,"offset_start":19,"offset_end":37}]' \
    '"pages":[{"page":1,"offset_start":0,"offset_end":20},{"page":2,"offset_start":19,"offset_end":37}]' \
    "\"pages\":[$p1,$p2],\"lines\":[{\"page\":2,\"offset_start\":0,\"offset_end\":17,\"bbox\":[1,2,3,4]},{\"page\":1,\"offset_start\":19,\"offset_end\":37,\"bbox\":[1,2,3,4]}]"; do
	printf '{"id":"d",%s,"metadata":{%s}}\n' "$t" "$m" > d.jsonl
	ev-ingest --db kb.db --quiet d.jsonl; echo "exit $?"
done
sqlite3 kb.db .dump | cmp -s - before && echo "store unchanged"
printf '{"id":"d",%s,"metadata":{"pages":[%s,{"page":3,"offset_start":37,"offset_end":37},{"page":4,"offset_start":37,"offset_end":37}],"lines":[%s,%s]}}\n' \
    "$t" "$p1,$p2" "$l1" "$l2" > d.jsonl
ev-ingest --db kb.db d.jsonl | jq -c '[.id, .page, .page_end]'
