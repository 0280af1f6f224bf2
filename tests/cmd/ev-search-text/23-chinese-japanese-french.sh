# Every language the store holds is searchable.  Chinese and Japanese are
# cut into words (ICU's dictionary) with overlapping bigrams beside them, so
# "蜂螨" (varroa mites), "草酸" (oxalic acid) and "蜂蜜" (honey) find the
# chunks that hold them inside longer runs (they found nothing when FTS5's
# unicode61 made a token of each run between punctuation); "蜜蜂" (bees) is
# not "蜂蜜" (honey).  French is stemmed by Snowball's French stemmer
# ("ruche" finds "ruches", "abeille" finds "abeilles"), English by Porter as
# before.  Each chunk keeps its language (declared, else found from its
# text), and the snippet marks the matched words.  A query in its own
# language, French, finds the French chunk through its French stem and the
# English chunks only through the word itself ("colonies" is written alike).
# A French query drops French function words; Japanese words are never
# "repaired" as typos.
ev-ingest --db kb.db --quiet "$TESTDATA/cjk/bees.jsonl" || exit 1
sqlite3 kb.db "SELECT doc_id, language FROM chunks ORDER BY doc_id"
for q in 蜂螨 草酸 蜂蜜 蜜蜂 蜂螨防治 シュウ酸 ダニ はちみつ ruche abeille "acide oxalique" "oxalic acid" varroa; do
	echo "--- $q"
	printf '"%s"\n' "$q" | ev-search-text --db kb.db -k 4 | jq -c '[.doc_id, .language, .snippet]'
done
echo '--- a query in its own language: its French stem, the word itself in English'
echo '{"query_id":"q","query":"colonies","language":"fr"}' | ev-search-text --db kb.db | jq -c '[.doc_id, .evidence[0].matched_terms]'
echo '--- the same in every language of the store'
echo '"colonies"' | ev-search-text --db kb.db | jq -c '[.doc_id, .evidence[0].matched_terms]'
echo '--- a bad language'
echo '{"query_id":"q","query":"miel","language":"french!"}' | ev-search-text --db kb.db 2>&1; echo "exit $?"
echo '--- the function words of the query language are not searched'
echo '{"query_id":"q","query":"le miel des abeilles","language":"fr"}' | ev-search-text --db kb.db | jq -c '[.doc_id, .evidence[0].matched_terms]'
echo '--- no typo repair for Japanese (an edit distance means nothing there)'
echo '"ヘギイタダミ"' | ev-search-text --db kb.db | jq -c '[.doc_id, .evidence[0].fuzzy]'
