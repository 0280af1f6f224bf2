# A malformed reference stops ev-show with exit status 2, naming the argument
# or the line; what came before it was shown.
exec 2>&1
printf '# T\n\nText.\n' >t.md
ev-ingest --db kb.db --quiet t.md
for ref in 'doc::t.md::page-0' 'doc::t.md::page-x' 'doc::t.md::page-1::bbox-1,2,3' \
    'doc::t.md::page-1::bbox-3,0,1,1' 'doc::::page-1' 'chunk:' 'doc:' ''; do
	ev-show --db kb.db "$ref"
	echo "status $?"
done
printf '"t.md:t:0"\n{"no": "ref"}\n"t.md:t:0"\n' | ev-show --db kb.db >out.jsonl
echo "status $?"
jq -c .ref out.jsonl
printf '{"evidences": [{"raw": {}}]}\n' | ev-show --db kb.db
echo "status $?"
ev-show kb.db
echo "status $?"
ev-show --db nosuch.db t.md
echo "status $?"
