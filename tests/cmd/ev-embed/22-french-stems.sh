# A French and English store: each chunk is embedded with the words the text
# index has for it (stemmed for its language), so the French query "ils
# mangeaient" finds the chunk that says "manger" by the vector lane (both are
# "mang" to the French stemmer, unrelated words to English's).  A query is
# stemmed for the store's languages, or its own "language" alone; a chunk
# record for its "language", its stored chunk's, or its text's language.
# Vector hits carry the chunk's language.
exec 2>&1
ev-ingest --db s.db --quiet "$CASEDIR/fr-en-docs.jsonl" || exit 1
ev-embed --db s.db --train --dim 4 --min-df 1 | jq -c '[.dim, .terms, .chunks]'
echo "the model's French stems:"
sqlite3 s.db "SELECT term FROM embed_vocab WHERE term IN ('mang', 'manger', 'voitur', 'national', 'nation') ORDER BY term"
ev-embed --db s.db --pending > pending.jsonl
ev-embed-load --db s.db --index s.faiss < pending.jsonl
printf '%s\n' '{"query_id":"store-langs","query":"ils mangeaient"}' \
	'{"query_id":"fr","query":"ils mangeaient","language":"fr-FR"}' \
	'{"query_id":"en","query":"ils mangeaient","language":"en"}' \
	'{"query_id":"english","query":"apple gardens"}' |
	ev-embed --db s.db --role query > q.jsonl
ev-search-vec --db s.db --index s.faiss -k 1 --no-snippet < q.jsonl | jq -c '[.query_id, .id, .language, .rank]'
echo "a chunk record embeds as its stored chunk, with or without the store's language:"
jq -c 'select(.id == "fr-pommes:_top:0") | .vector' pending.jsonl > stored
jq -c 'select(.id == "fr-pommes:_top:0") | del(.vector, .model)' pending.jsonl > rec
ev-embed --db s.db < rec | jq -c .vector | cmp - stored && echo "by its id: the same vector"
jq -c '.id = "new" | .language = "fr"' rec | ev-embed --db s.db | jq -c .vector | cmp - stored && echo "language fr: the same vector"
jq -c '.id = "new"' rec | ev-embed --db s.db | jq -c .vector | cmp - stored && echo "its text found French: the same vector"
jq -c '.id = "new" | .language = "en"' rec | ev-embed --db s.db | jq -c .vector | cmp -s - stored || echo "language en: another vector"
echo "a bad language:"
echo '{"query":"ils mangeaient","language":"français"}' | ev-embed --db s.db --role query; echo "exit $?"
echo "the model's languages, the most chunks first (an English model has none):"
sqlite3 s.db "SELECT params FROM embed_model" | jq -c .languages
grep '"en-' "$CASEDIR/fr-en-docs.jsonl" | ev-ingest --db en.db --quiet || exit 1
ev-embed --db en.db --train --min-df 1 | jq -c .model > /dev/null
sqlite3 en.db "SELECT params FROM embed_model" | jq -c .languages
echo "a store given the model stems queries for its languages, not its own chunks':"
ev-embed --db en.db --model-from s.db | jq -c .from
ev-embed --db en.db --role query < q.jsonl | cmp - q.jsonl && echo "the same query vectors"
