# Every FTS5 special character and operator word in a query is text: no
# error, no silently empty result.
exec 2>&1
. "$CASEDIR/mkstore"; mkstore kb.db
cat >q.txt <<'Q'
"wing
wing"
(wing
wing)
wing*
*wing
title:wing
^wing
-wing
+wing
wing AND
OR wing
NOT wing
NEAR(wing
wing NEAR/2
{wing}
wing:
'wing'
wing\
wing; DROP TABLE chunks;
Q
jq -R -c '{query_id: ., query: .}' q.txt | ev-search-text --db kb.db -k 1 | jq -r '[.query_id, .doc_id] | @tsv'
echo '"NEAR star"' | ev-search-text --db kb.db | jq -c '[.doc_id, .evidence[0].matched_terms]'
echo "status $?"
