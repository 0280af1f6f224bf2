# --feedback-pool N: the pass with the feedback terms ranks only the first
# pass's best N chunks (at least k and --feedback).  "comet" is in a, b and
# c; the first pass's best two, a and b, feed back b's "tail" and "dust",
# which c holds too: with a pool of 2 the hits are b and a; with
# 0, every chunk holding the word, c comes up.  The key, in both forms; bad
# values exit 2.
exec 2>&1
printf '%s\n' '{"id":"a","text":"comet comet comet."}' \
	'{"id":"b","text":"comet comet, its tail and its dust."}' \
	'{"id":"c","text":"a comet: tail, dust, tail, dust and more dust."}' \
	'{"id":"d","text":"no word of the query."}' '{"id":"e","text":"nor here."}' \
	'{"id":"f","text":"nor there."}' '{"id":"g","text":"nor anywhere."}' >docs.jsonl
ev-ingest --db kb.db --quiet docs.jsonl || exit 1
q() { echo '"comet"' | ev-search-text --db kb.db -k 2 --feedback 2 --feedback-weight 0.9 "$@" |
	jq -r .doc_id | tr '\n' ' '; echo; }
echo "first pass: $(echo '"comet"' | ev-search-text --db kb.db -k 2 --feedback 0 | jq -r .doc_id | tr '\n' ' ')"
echo "pool 2:     $(q --feedback-pool 2)"
echo "pool 0:     $(q --feedback-pool 0)"
echo "default:    $(q)"
printf 'text:\n  feedback_pool: 0\n' >p.yaml
echo "key 0:      $(q --config p.yaml)"
printf 'lanes:\n  text:\n    feedback:\n      docs: 2\n      pool: 2\n' >m.yaml
echo "mapping 2:  $(q --config m.yaml)"
for a in '--feedback-pool -1' '--feedback-pool 100001' '--feedback-pool x'; do
	echo '"x"' | ev-search-text --db kb.db $a; echo "status $?"
done
