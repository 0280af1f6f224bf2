# Hostile input: random bytes, NUL, invalid UTF-8 in JSON, huge numbers, deep
# nesting, a huge line; each is exit 2 naming the line, and no store is made.
head -c 3000 /dev/zero | tr '\0' 'x' > huge
printf '{"id": "h", "text": "%s"}\n' "$(cat huge huge huge huge huge huge huge huge)" > huge.jsonl
printf '\001\002\376\377 garbage\n' > random.jsonl
printf '{"id": "n", "text": "a\\u0000b"}\n' > nul.jsonl
printf '{"id": "u", "text": "\303\050"}\n' > utf8.jsonl
printf '{"id": "i", "text": "t", "metadata": {"n": 1e999}}\n' > big.jsonl
awk 'BEGIN { for (i = 0; i < 5000; i++) printf "["; print "" }' > deep.jsonl
printf '{"id": "nan", "text": NaN}\n' > nan.jsonl
for f in random nul utf8 big deep nan; do
	ev-ingest --db kb.db $f.jsonl 2>err
	echo "status $?"
	cut -c1-90 err
done
ls
ev-ingest --db kb.db --quiet huge.jsonl && sqlite3 kb.db "SELECT length(text) FROM chunks"
