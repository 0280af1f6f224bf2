# A query_id of any length is named whole on stderr: in the warning of an
# item that fails a gate and in --summary's list of the items that fail it
# (both wrote it into 128 bytes: an id of 128 bytes or more was cut to 127).
# Ids of 127, 128 and 300 bytes, two of these differing only in their last
# byte; each run of q is shown as q{ITS LENGTH}.
q() { printf 'q%.0s' $(seq "$1"); printf '%s' "$2"; }
c='"citations":["Drag is caused by turbulent flow."]'
for id in "$(q 126 A)" "$(q 127 A)" "$(q 299 A)" "$(q 299 B)" 7; do
	case $id in 7) ;; *) id="\"$id\"" ;; esac
	printf '{"query_id":%s,"query":"turbulent flow","answer":"The moon is made of cheese.",%s}\n' "$id" "$c"
done >answers.jsonl
ev-score --summary --min-faithfulness 0.5 answers.jsonl 2>err.txt >out.jsonl
echo "exit $?"
short() { awk '{ while (match($0, /qqqqqqqqqq+/)) $0 = substr($0, 1, RSTART - 1) "q{" RLENGTH "}" substr($0, RSTART + RLENGTH); print }'; }
grep -v 'uses none of its citations' err.txt | short
jq -r '.query_id | tostring' out.jsonl | short
