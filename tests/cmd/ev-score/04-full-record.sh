# A whole score record: query_id and request_id kept, other input fields
# (here "model") not; details name each claim's best citation and its
# unsupported words as written, the uncovered query words, the most redundant
# pair.  f = (1 + 0)/2 = 0.5 (the second claim: moon, chees unsupported);
# c = 2/3 (turbul and flow are cited, flow by d2 alone, which the answer does
# not use but coverage counts; pipes is not cited); r = 0 (no shared terms);
# overall = 0.4 * 0.5 + 0.4 * 0.6667 + 0.2 = 0.6667.
ev-score <<'EOF2'
{"query_id":"q1","request_id":"r-9","model":"m","query":"turbulent flow in pipes","answer":"Turbulence causes drag. The moon is cheese.","citations":[{"id":"d1:s:0","text":"Drag is caused by turbulence."},{"id":"d2:s:0","text":"Laminar flow is smooth."}]}
EOF2
