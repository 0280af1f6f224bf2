# A whole EvidencePack of fused hits, with the clock and the UUIDs fixed
# (EV_FIXED_TIME, EV_UUID_SEED: testing aids), pretty-printed.
export EV_FIXED_TIME=2026-02-20T12:00:00Z EV_UUID_SEED=42
L=$CASEDIR/../ev-fuse
ev-fuse "$L/text.jsonl" "$L/vector.jsonl" | ev-pack --format json | head -n 160
