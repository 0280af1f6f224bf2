# The keys of --config come from the option table: each lane key under
# lanes.text and under its older name text, both listed by --list-options;
# lanes.text wins key by key, and where the two give feedback in different
# forms (a number, a mapping) lanes.text's is used whole.  Every key of the
# file is checked, the losing one too.  The other stages' keys belong to
# other commands (rerank.model is ev-pack's): no warning; a key no stage
# reads (a lane "sql", routing.x) is warned about.  A section that is not a
# mapping is an error, without a warning before it.
exec 2>&1
. "$CASEDIR/mkstore"; mkstore kb.db
ev-search-text --list-options | grep -E '^(k|-)	(k|-)	(k|text.k|lanes.text.k|text.feedback|lanes.text.feedback.docs)	'
fb() { echo '"plate"' | ev-search-text --db kb.db --config c.yaml | jq -c '[.doc_id, .evidence[0].feedback_terms]' | tr '\n' ' '; echo; }
printf 'lanes:\n  text:\n    feedback: 0\ntext:\n  feedback:\n    docs: 2\n' >c.yaml; fb
printf 'lanes:\n  text:\n    feedback:\n      terms: 3\ntext:\n  feedback: 2\n' >c.yaml; fb
printf 'lanes:\n  text:\n    feedback:\n      docs: 2\ntext:\n  feedback:\n    terms: 3\n' >c.yaml; fb
printf 'lanes:\n  sql:\n    limit: 5\n  text:\n    k: 1\nrerank:\n  model: x\nrouting:\n  x: 1\n' >c.yaml
echo '"plate"' | ev-search-text --db kb.db --config c.yaml | jq -r .doc_id
printf 'lanes:\n  text:\n    k: 3\ntext:\n  k: 0\n' >c.yaml
echo '"plate"' | ev-search-text --db kb.db --config c.yaml; echo "status $?"
# a key that should be a mapping: the error alone, no warning first
printf 'lanes:\n  text:\n    weights: 3\n' >c.yaml
echo '"plate"' | ev-search-text --db kb.db --config c.yaml; echo "status $?"
