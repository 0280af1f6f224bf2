# Bad input exits 2 naming stdin:2 (the first line is a good record, whose
# score is written first: output streams).  Truncated JSON, random bytes,
# invalid UTF-8, NUL bytes, a non-object, citations that are not an array, a
# citation whose text is not a string, missing fields, overflowing numbers,
# duplicate keys.
ok='{"query_id":"q1","query":"flow","answer":"Flow.","citations":["flow"]}'
try() {
	{ printf '%s\n' "$ok"; printf "$1"; printf '\n'; } | ev-score >out
	echo "status $? $(jq -c '.query_id' out)"
}
{
try '{"query":"flow","answer":"Flow.","citations":[{"te'
try '\377\376\001garbage'
try '{"query":"fl\351w","answer":"Flow.","citations":[]}'
try '{"query":"flow",\000"answer":"Flow.","citations":[]}'
try '{"query":"flow","answer":"F\\u0000w","citations":[]}'
try '[1,2,3]'
try '"just a string"'
try '{"query":"flow","answer":"Flow.","citations":"flow"}'
try '{"query":"flow","answer":"Flow.","citations":{"text":"flow"}}'
try '{"query":"flow","answer":"Flow.","citations":[{"id":"a","text":"ok"},{"id":"b","text":42}]}'
try '{"query":"flow","answer":"Flow.","citations":[{"id":"a","text":null}]}'
try '{"query":"flow","answer":"Flow.","citations":[true]}'
try '{"query":"flow","answer":["Flow."],"citations":[]}'
try '{"query":"flow","citations":[]}'
try '{"answer":"Flow.","citations":[]}'
try '{"query":"flow","answer":"Flow."}'
try '{"query":"flow","answer":"Flow.","citations":[],"x":1e999}'
try '{"query":"flow","answer":"Flow.","answer":"Again.","citations":[]}'
} 2>&1
