# Truncated JSON, random bytes, invalid UTF-8, NUL bytes, a non-object, wrong
# types: each exits 2 naming stdin:2 (the first line is a good hit).
printf '%s\n' 'q1 d1 1' 'q1 d2 1' >qrels
ok='{"query_id":"q1","doc_id":"d1","rank":1}'
try() {
	{ printf '%s\n' "$ok"; printf "$1"; printf '\n'; } | ev-eval --qrels qrels
	echo "status $?"
}
{
try '{"query_id":"q1","doc_'
try '\377\376\001garbage'
try '{"query_id":"q\351","doc_id":"d1"}'
try '{"query_id":"q1",\000"doc_id":"d1"}'
try '{"query_id":"q1","doc_id":"d\\u0000x"}'
try '[1,2,3]'
try '"just a string"'
try '{"query_id":[1],"doc_id":"d1"}'
try '{"query_id":"q1","doc_id":1.5}'
try '{"query_id":"q1","doc_id":"d1","score":"high"}'
try '{"query_id":"q1","doc_id":"d1","score":1e999}'
try '{"query_id":"q1","doc_id":"d1","rank":123456789012345678901234567890}'
try '{"query_id":"q1","doc_id":"d1","lane":7}'
try '{"query_id":"","doc_id":"d1"}'
try '{"query_id":"q1","doc_id":"d1","rank":1,"rank":2}'
} 2>&1
