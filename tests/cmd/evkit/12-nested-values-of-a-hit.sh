# Every stage that reads hits holds what a hit's signals and evidence hold
# to one rule (ev_hit_check()): each signal a number or a boolean
# ("query_as_document": true), each evidence entry an object whose lane is a
# non-empty string, score a number, rank a whole number from 1 and snippet
# a string.  Such a hit is bad input, FILE:LINE and the field, exit 2, in
# ev-pack (the first hit of a query and a later one, its scanned fast path),
# ev-fuse, ev-expand and ev-rerank; they took it, and ev-pack wrote an
# evidence entry of "score": "x" or the signal's value dropped.  What
# ev-expand writes in evidence passes on; ev-eval judges by doc_id alone.
exec 2>&1
printf '%s\n' '{"id":"d","text":"Mites rose in March.","published_date":"2026-03-01"}' \
    '{"id":"e","text":"Mites fell in April.","published_date":"2026-04-02"}' | ev-ingest --db kb.db --quiet
good='"query_id":"q","query":"mites","doc_id":"d","lane":"text"'
first="{$good,\"id\":\"d:_top:0\",\"rank\":1,\"score\":2}"
for bad in '"evidence":[1]' '"evidence":[{"lane":3}]' '"evidence":[{"lane":""}]' \
    '"evidence":[{"lane":"text"},{"score":"x"}]' '"evidence":[{"rank":0}]' \
    '"evidence":[{"rank":"1"}]' '"evidence":[{"rank":1.5}]' '"evidence":[{"snippet":[]}]' \
    '"signals":{"fts_score":"1"}' '"signals":{"vector_score":null}' \
    '"signals":{"fts_score":{"v":1}}' '"warnings":[2]'; do
	echo "-- $bad"
	line="{$good,\"id\":\"x\",\"rank\":2,\"score\":1,$bad}"
	printf '%s\n' "$line" >one.jsonl
	printf '%s\n' "$first" "$line" >two.jsonl
	for cmd in "ev-pack one.jsonl" "ev-pack two.jsonl" "ev-fuse two.jsonl" \
	    "ev-expand --db kb.db two.jsonl" "ev-rerank --db kb.db two.jsonl"; do
		$cmd >/dev/null
		echo "exit $?"
	done
done
echo "-- what the lanes and ev-expand write passes; ev-eval judges by doc_id"
printf '%s\n' "{$good,\"id\":\"d:_top:0\",\"rank\":1,\"score\":2,\"signals\":{\"fts_score\":2,\"query_as_document\":true},\"evidence\":[{\"lane\":\"text\",\"rank\":1,\"snippet\":\"Mites\",\"matched_terms\":[\"mite\"]}]}" >ok.jsonl
ev-expand --db kb.db ok.jsonl >expanded.jsonl
echo "exit $?"
jq -c '[.id, [.evidence[] | del(.retrieved_at)]]' expanded.jsonl
ev-rerank --db kb.db expanded.jsonl | ev-fuse | ev-pack |
	jq -c '.evidences[] | [.id, [.evidence[] | .lane], .signals.fts_score]'
printf 'q 0 d 1\n' >qrels.txt
printf '%s\n' "{$good,\"id\":\"d:_top:0\",\"rank\":1,\"score\":2,\"evidence\":[1],\"signals\":{\"fts_score\":\"x\"}}" |
	ev-eval --qrels qrels.txt
echo "exit $?"
