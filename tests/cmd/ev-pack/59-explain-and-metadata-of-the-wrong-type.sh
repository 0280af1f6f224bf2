# A hit's explain and metadata must be objects when given (null is absent):
# the scanned line's fast path sent such a hit to the parsed path to word
# the message, which then took it, dropping the field (explain 5: the fusion
# not shown; metadata 5: its page and policy fields gone).  Such a hit is bad
# input (exit 2, FILE:LINE).  A modality that is not a string gives way to
# the lane's (tests/hostile's ok-modality-number).
exec 2>&1
hit='{"query_id":"q","query":"mites","id":"d:_top:0","doc_id":"d","rank":1,"score":1,"lane":"text"'
for f in '"explain":5' '"explain":[]' '"metadata":"p. 2"'; do
	printf '%s\n' "$hit,$f}" >hits.jsonl
	ev-pack hits.jsonl
	echo "exit $?"
done
echo "-- null is absent; a modality of a number gives way:"
printf '%s\n' "$hit,\"explain\":null,\"metadata\":null,\"modality\":1}" |
	ev-pack --group-by modality | jq -c '[.evidences[].group]'
