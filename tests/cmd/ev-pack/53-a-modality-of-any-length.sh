# --group-by modality takes a hit's modality of any length as its group: it
# was written into 256 bytes, so that a modality of 256 bytes or more was
# cut to 255 and two that differ past there made one group.  Modalities of
# 255, 256 and 300 bytes (two of 300 that differ in their last byte); each
# run of m is shown as m{ITS LENGTH}.
short() { awk '{ while (match($0, /mmmmmmmmmm+/)) $0 = substr($0, 1, RSTART - 1) "m{" RLENGTH "}" substr($0, RSTART + RLENGTH); print }'; }
m() { printf 'm%.0s' $(seq "$1"); printf '%s' "$2"; }
n=0
for mod in "$(m 255)" "$(m 256)" "$(m 299 A)" "$(m 299 B)"; do
	n=$((n + 1))
	printf '{"query_id":"q","id":"d%s:0:0","doc_id":"d%s","score":%s,"lane":"text","source_uri":"d%s","snippet":"s","modality":"%s"}\n' \
		$n $n $((10 - n)) $n "$mod"
done >hits.jsonl
ev-pack --group-by modality hits.jsonl >pack.json
echo "exit $?"
jq -c '.evidences[] | [.id, .group]' pack.json | short
jq -c '.stats.by_group | to_entries[] | [.key, .value]' pack.json | short
