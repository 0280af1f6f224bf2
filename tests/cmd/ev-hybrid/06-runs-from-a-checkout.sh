# Run from a checkout whose commands are built but not installed (not on
# PATH), as the demo's hint says to, ev-hybrid uses the checkout's bin/.
. "$CASEDIR/store.inc"
PATH=/usr/bin:/bin sh "$hybrid" --db db --index idx "panel flutter" | jq -c '[.query, (.evidences | length > 0)]'
