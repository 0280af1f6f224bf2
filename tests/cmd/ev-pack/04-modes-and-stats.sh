# provenance.mode from the lanes that found each hit: hybrid (both),
# semantic (vector only), exact (text only); stats.by_mode counts them.
L=$CASEDIR/../ev-fuse
ev-fuse "$L/text.jsonl" "$L/vector.jsonl" | ev-pack | jq -c "[[.evidences[] | [.id, .provenance.mode, .provenance.query_text, .provenance.query_index]], .stats.candidates, .stats.returned, .stats.by_mode]"
