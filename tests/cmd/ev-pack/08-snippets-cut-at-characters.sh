# Snippets are cut at max_snippet_chars characters, never inside a UTF-8 character.
printf "%s\n" "{\"query_id\":\"q\",\"id\":\"a\",\"score\":1,\"lane\":\"text\",\"snippet\":\"\\u6d4b\\u8bd5\\u00e9t\\u00e9 flutter\"}" |
	ev-pack --max-snippet-chars 4 | jq -r ".evidences[0].snippet"
