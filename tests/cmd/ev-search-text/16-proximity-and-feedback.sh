# Proximity: two query words side by side score more than apart (--proximity
# 0 turns it off).  Feedback: the best N chunks of a first pass feed their
# words back (here 2 of the 6 documents); the evidence lists the feedback
# terms a chunk holds; it needs at least N chunks to learn from; options and
# their config keys; --feedback-focus; bad values exit 2.
exec 2>&1
. "$CASEDIR/mkstore"; mkstore kb.db
echo '"flat plate"' | ev-search-text --db kb.db --proximity 0 | jq -r '[.doc_id, .score] | @tsv'
echo '"flat plate"' | ev-search-text --db kb.db | jq -r '[.doc_id, .score] | @tsv'
echo '"plate"' | ev-search-text --db kb.db --feedback 0 | jq -r .doc_id | tr '\n' ' '; echo
echo '"plate"' | ev-search-text --db kb.db --feedback 2 | jq -c '[.doc_id, .evidence[0].matched_terms, .evidence[0].feedback_terms]'
echo '"plate"' | ev-search-text --db kb.db --feedback 4 | jq -c '[.doc_id, .evidence[0].feedback_terms]'
printf 'text:\n  proximity: 0\n  feedback:\n    docs: 2\n    terms: 3\n    weight: 0.9\n' >c.yaml
echo '"plate"' | ev-search-text --db kb.db --config c.yaml | jq -c '[.doc_id, .evidence[0].feedback_terms]'
# --feedback-focus: the power of a feedback chunk's relative score picks
# whose words feed back (0: the three chunks alike; 10: the best one's)
for p in 0 1 10; do
	echo '"plate"' | ev-search-text --db kb.db --feedback 3 --feedback-terms 3 --feedback-focus $p |
		jq -c '[.doc_id, .evidence[0].feedback_terms]' | tr '\n' ' '; echo
done
printf 'lanes:\n  text:\n    feedback: 3\n    feedback_terms: 3\n    feedback_focus: 0\n' >f.yaml
echo '"plate"' | ev-search-text --db kb.db --config f.yaml | jq -c '[.doc_id, .evidence[0].feedback_terms]' | tr '\n' ' '; echo
printf 'text:\n  feedback:\n    docs: 3\n    terms: 3\n    focus: 10\n' >f.yaml
echo '"plate"' | ev-search-text --db kb.db --config f.yaml | jq -c '[.doc_id, .evidence[0].feedback_terms]' | tr '\n' ' '; echo
for a in '--feedback-focus -1' '--feedback-focus 11' '--proximity -1' '--proximity 11' '--feedback -1' '--feedback 1001' '--feedback-terms 0' \
    '--feedback-weight 1.5' '--feedback-weight x'; do
	echo '"x"' | ev-search-text --db kb.db $a; echo "status $?"
done
printf 'text:\n  feedback:\n    weight: 2\n' >bad.yaml
echo '"x"' | ev-search-text --db kb.db --config bad.yaml; echo "status $?"
