# Fields ev-fuse does not compute are spliced in as they were read, byte for
# byte: escapes, number spellings and spacing inside values are kept (vector
# comes first, so its title wins); the numbers fusion computes are written
# with 10 significant digits.
printf '%s\n' '{"query_id":"q1","id":"a","lane":"text","rank":1,"score":2.50,"title":"other","extra":{ "p" : 0.123456789012345 },"signals":{"bm25":7.250}}' \
	'{"query_id":"q1","id":"a","lane":"vector","rank":2,"score":1e-1,"title":"caf\u00e9 \/ \"x\"","more":[1, 2]}' >hits.jsonl
ev-fuse --no-explain hits.jsonl
