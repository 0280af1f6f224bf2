# A retrieval plan: ev-search-text reads lanes.text.* (text.* is the older
# name of the same keys; lanes.text wins when both are there), ignores the
# other stages' sections (a plan's top-level k is ev-pack's, not the lane's)
# without a word, and warns about keys nobody knows.  samples/plan.yaml reads
# cleanly.  --k1 and --b (lanes.text.bm25.k1, .b) change BM25's scores.
export EV_FIXED_TIME=2026-11-29T02:10:33.123Z	# the lanes' stamp (retrieved_at), pinned
exec 2>&1
. "$CASEDIR/mkstore"; mkstore kb.db
cat >plan.yaml <<'Y'
version: "0.1"
lanes:
  text:
    k: 2
    proximity: 0
    feedback: 0
    weights:
      title: 0
    colour: blue
  vector:
    k: 100
fusion:
  method: weighted
  weights:
    text: 1
k: 1
diversity:
  by_document: 3
output:
  max_snippet_chars: 300
nonsense: 1
Y
echo '"boundary"' | ev-search-text --db kb.db --config plan.yaml | jq -r '[.rank, .doc_id, .score] | @tsv'
echo '"boundary"' | ev-search-text --db kb.db --config plan.yaml -k 1 --weight title=50 | jq -r '[.rank, .doc_id] | @tsv'
echo "-- text.* is an alias; lanes.text wins; the mapping form of feedback"
printf 'text:\n  k: 1\n  feedback:\n    docs: 0\nlanes:\n  text:\n    k: 3\n' >both.yaml
echo '"boundary"' | ev-search-text --db kb.db --config both.yaml | jq -r .doc_id | tr '\n' ' '; echo
printf 'k: 1\ntext:\n  proximity: 0\n' >old.yaml
echo '"boundary"' | ev-search-text --db kb.db --config old.yaml | jq -r .doc_id | tr '\n' ' '; echo
echo "-- the shipped plan"
echo '"flat plate"' | ev-search-text --db kb.db --config "$SAMPLES/plan.yaml" | jq -r .doc_id | tr '\n' ' '; echo
# it holds the defaults: the same hits, to the bit, as no plan at all
echo '"flat plate wing slipstream"' | ev-search-text --db kb.db --config "$SAMPLES/plan.yaml" >with.jsonl
echo '"flat plate wing slipstream"' | ev-search-text --db kb.db >without.jsonl
cmp with.jsonl without.jsonl && echo "the shipped plan's lanes.text is the defaults"
echo "-- k1 and b"
for o in '' '--k1 0' '--b 0' '--k1 2 --b 1'; do
	echo '"wing"' | ev-search-text --db kb.db --feedback 0 $o | jq -r '[.doc_id, .score] | @tsv' | tr '\n' ' '; echo
done
printf 'lanes:\n  text:\n    feedback: 0\n    bm25:\n      k1: 0\n' >k1.yaml
echo '"wing"' | ev-search-text --db kb.db --config k1.yaml | jq -r '[.doc_id, .score] | @tsv' | tr '\n' ' '; echo
echo "-- bad values"
printf 'lanes:\n  text:\n    bm25:\n      b: 1.5\n' >bad.yaml
echo '"x"' | ev-search-text --db kb.db --config bad.yaml; echo "status $?"
printf 'lanes:\n  text:\n    feedback: -1\n' >bad.yaml
echo '"x"' | ev-search-text --db kb.db --config bad.yaml; echo "status $?"
printf 'lanes:\n  text: 3\n' >bad.yaml
echo '"x"' | ev-search-text --db kb.db --config bad.yaml; echo "status $?"
for a in '--k1 -1' '--k1 11' '--b 1.5' '--b x'; do
	echo '"x"' | ev-search-text --db kb.db $a; echo "status $?"
done
