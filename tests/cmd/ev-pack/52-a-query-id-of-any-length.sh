# A query_id of any length is a query_id, as the lanes take it, wherever
# ev-pack reads one: in the hits, in --queries FILE (a pack each, and one
# given twice named whole) and in --format text's "query ID:" line.  The
# hits of q1 under ids of 255, 256 and 300 bytes (two of 300 that differ in
# their last byte), and an integer id; each run of x is shown as x{ITS LENGTH}.
export EV_FIXED_TIME=2026-02-20T12:00:00Z EV_UUID_SEED=7
short() { awk '{ while (match($0, /xxxxxxxxxx+/)) $0 = substr($0, 1, RSTART - 1) "x{" RLENGTH "}" substr($0, RSTART + RLENGTH); print }'; }
x() { printf 'x%.0s' $(seq "$1"); printf '%s' "$2"; }
for id in "$(x 255)" "$(x 256)" "$(x 299 A)" "$(x 299 B)"; do
	jq -c --arg id "$id" 'select(.query_id == "q1") | .query_id = $id' "$CASEDIR/../ev-fuse/text.jsonl"
	printf '{"query_id":"%s","query":"wing flutter"}\n' "$id" >>q.jsonl
done >hits.jsonl
jq -c 'select(.query_id == "q2") | .query_id = 17' "$CASEDIR/../ev-fuse/text.jsonl" >>hits.jsonl
echo '{"query_id":17,"query":"boundary layer"}' >>q.jsonl
ev-pack -k 2 hits.jsonl | jq -c '[.query_id, [.evidences[].id]]' | short
ev-pack -k 2 --queries q.jsonl hits.jsonl | jq -c '[.query_id, [.evidences[].id]]' | short
COLUMNS=400 ev-pack -k 1 --format text hits.jsonl | grep '^query' | short
sed -n 3p q.jsonl >>q.jsonl
ev-pack --queries q.jsonl hits.jsonl 2>&1 >/dev/null | short
