# An EvidencePack with an added "answer": its evidences are the citations
# (their snippets), its query the evidences' provenance.query_text; the
# request_id and plan_id are kept; query_id comes from plan.query_id.
ev-score <<'EOF2' | jq -c '{query_id, request_id, plan_id, faithfulness, coverage, redundancy, overall, claims: [.details.claims[].citation.id]}'
{"version":"0.1","plan":{"query_id":"7"},"plan_id":"p-1","request_id":"r-1","generated_at":"2026-01-01T00:00:00Z","evidences":[{"id":"d1:s:0","source_uri":"d1","snippet":"Drag is caused by turbulent flow.","provenance":{"mode":"hybrid","query_text":"turbulent flow in pipes"}},{"id":"d2:s:0","source_uri":"d2","snippet":"Pipes carry water.","provenance":{"mode":"exact","query_text":"turbulent flow in pipes"}}],"stats":{},"explain":{},"warnings":[],"answer":"Turbulent flow causes drag. Pipes carry water."}
EOF2
