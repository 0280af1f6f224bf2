# A made-up answer whose lone citation matches the question but not the
# answer.  No citation shares a word with the answer, so it supports nothing
# (faithfulness 0); coverage measures the retrieval, the query's words found
# across the cited passages, and the citation holds all three (1); a lone
# citation repeats nothing (redundancy 0), so overall = 0.4 * 0 + 0.4 * 1 +
# 0.2 * 1 = 0.6.  The gate the README suggests fails it on faithfulness, and
# --summary names the failing axis and the item; an answer that uses the
# citation passes the same gate (f 1, c 1, overall 1).  With --coverage used,
# a citation the answer does not use covers nothing: coverage 0, overall 0.2.
cat >answers.jsonl <<'EOF2'
{"query_id":"moon","query":"how do I count varroa mites","answer":"The moon is made of green cheese.","citations":[{"text":"Varroa mites are counted with an alcohol wash."}]}
{"query_id":"wash","query":"how do I count varroa mites","answer":"Count varroa mites with an alcohol wash.","citations":[{"text":"Varroa mites are counted with an alcohol wash."}]}
EOF2
head -n 1 answers.jsonl | ev-score 2>&1
ev-score --min-faithfulness 0.5 --min-overall 0.6 --summary answers.jsonl 2>&1
echo "status $?"
ev-score --coverage used answers.jsonl 2>/dev/null | jq -c '{query_id, coverage, overall, coverage_of: .details.coverage_of}'
