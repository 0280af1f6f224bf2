# Single-lane hits: fusion method "none", mode exact, the lane's own signals.
ev-pack "$CASEDIR/../ev-fuse/text.jsonl" | jq -c "[.explain.fusion, [.evidences[] | [.id, .provenance.mode, .signals, .metadata, .raw]]]"
