# Records read by ev-ingest's own JSON reader (strings, objects, arrays, true,
# false, null) and those it hands to Jansson (numbers) give the same chunk
# records and stored metadata: escapes, a surrogate pair, raw UTF-8, nested
# metadata, passed-through fields of every type.
cat > docs.jsonl <<'JSON'
{"id": "e1", "title": "T\u00e9st \"q\" \ud83d\ude00", "text": "line\\one\ttab \u20ac caf\u00e9 / \/ \b\f\r\nnext para\n\nsecond", "metadata": {"tags": ["a", true, false, null, {"k": []}], "s": "x"}, "flag": true, "none": null, "list": [1, "two"]}
  {"id":"e2","text":"caf\u00e9 \u00E9 raw: café €","metadata":{"n":1,"r":2.5,"b":false},"n":-0.5e3}
{"id": "e3", "text": "\u0041\u0042 \u00ff\u0800\uffff", "source_uri": "x\/y", "extra": {"deep": {"deeper": {"deepest": [[[]]]}}}}
JSON
ev-ingest --db kb.db docs.jsonl
sqlite3 kb.db "SELECT doc_id, title, source_uri, metadata, content_hash FROM documents ORDER BY doc_id"
