# Hostile input: a clear message naming FILE:LINE and exit 2, never a crash;
# the hits of earlier queries are out; the store is unchanged.
exec 2>&1
. "$CASEDIR/mkstore"; mkstore kb.db
sum=$(sqlite3 kb.db 'select count(*), sum(length(text)) from chunks' 2>/dev/null)
try() {
	ev-search-text --db kb.db -k 1 "$@" >hits.jsonl
	echo "status $?"
	jq -r .doc_id hits.jsonl
}
printf '"plate"\n{"query_id":1,"query":"wi' >trunc.jsonl; try trunc.jsonl
printf '"plate"\n{"query":"a\0b"}\n' >nul.jsonl; try nul.jsonl
printf '"plate"\n"caf\351"\n' >utf8.jsonl; try utf8.jsonl
printf '{"query_id":1,"query":5}\n' >type.jsonl; try type.jsonl
printf '{"query_id":[1],"query":"wing"}\n' >id.jsonl; try id.jsonl
printf '{"query_id":1}\n' >missing.jsonl; try missing.jsonl
printf '42\n' >number.jsonl; try number.jsonl
awk 'BEGIN { for (i = 0; i < 5000; i++) printf "["; print "" }' >deep.jsonl; try deep.jsonl
awk 'BEGIN { printf "{\"query_id\":1,\"query\":\""; for (i = 0; i < 100000; i++) printf "plate "; print "\"}" }' >huge.jsonl; try huge.jsonl
try nosuch.jsonl
[ "$(sqlite3 kb.db 'select count(*), sum(length(text)) from chunks' 2>/dev/null)" = "$sum" ] && echo "store unchanged"
