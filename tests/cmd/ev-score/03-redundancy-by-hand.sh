# Redundancy, hand-computed: TF-IDF cosine between citations, idf = 1 +
# ln((1 + N) / (1 + df)) over the item's N citations.  identical -> 1.
# unrelated -> 0.  overlapping "alpha beta" / "alpha gamma": alpha has idf 1,
# beta and gamma 1 + ln(3/2) = 1.4055, cosine 1 / (1 + 1.4055^2) = 0.3361.
# three "alpha beta", "alpha beta", "gamma delta": pairs 1, 0, 0; nearest
# (default) (1 + 1 + 0)/3 = 0.6667, max 1, mean 0.3333.
ev-score <<EOF2 | jq -c '{query_id, redundancy, most: .details.most_redundant}'
{"query_id":"identical","query":"flow","answer":"Flow.","citations":[{"id":"a","text":"Turbulent flow causes drag."},{"id":"b","text":"Turbulent flow causes drag."}]}
{"query_id":"unrelated","query":"flow","answer":"Flow.","citations":[{"id":"a","text":"Turbulent flow causes drag."},{"id":"b","text":"The moon is made of cheese."}]}
{"query_id":"overlapping","query":"flow","answer":"Flow.","citations":["alpha beta","alpha gamma"]}
{"query_id":"three","query":"flow","answer":"Flow.","citations":["alpha beta","alpha beta","gamma delta"]}
EOF2
t='{"query_id":"three","query":"flow","answer":"Flow.","citations":["alpha beta","alpha beta","gamma delta"]}'
echo "$t" | ev-score --redundancy max | jq -c '{redundancy}'
echo "$t" | ev-score --redundancy mean | jq -c '{redundancy}'
