# --format text: a table for ad hoc debugging.
export EV_UUID_SEED=1
L=$CASEDIR/../ev-fuse
ev-fuse "$L/text.jsonl" "$L/vector.jsonl" | ev-pack --format text
