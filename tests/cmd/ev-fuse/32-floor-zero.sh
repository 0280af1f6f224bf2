# --floor text=zero: a candidate the text lane did not return counts in it as
# a raw score of 0, normalised: with minmax over text scores 3 and 2, (0-2)/1
# = -2, where the lane's own floor is 0.  The vector lane alone found c,
# ranked first by it: with the norm floor c passes b, which the text lane
# found; with the zero floor it does not.
printf '%s\n' '{"query_id":"q","id":"a","rank":1,"score":3,"lane":"text"}' \
	'{"query_id":"q","id":"b","rank":2,"score":2,"lane":"text"}' \
	'{"query_id":"q","id":"c","rank":1,"score":0.9,"lane":"vector"}' \
	'{"query_id":"q","id":"a","rank":2,"score":0.5,"lane":"vector"}' \
	'{"query_id":"q","id":"b","rank":3,"score":0.1,"lane":"vector"}' >hits.jsonl
ev-fuse --method weighted --norm minmax hits.jsonl | jq -c '[.id, .score]'
ev-fuse --method weighted --norm minmax --floor text=zero hits.jsonl | jq -c '[.id, .score]'
ev-fuse --method weighted --norm minmax --floor text=zero hits.jsonl |
	jq -c 'select(.id == "c") | [.explain.floor, (.explain.lanes[] | select(.lane == "text") | .formula)]'
# zscore (mean 2.5, sd 0.5): the lane's floor is the lowest z-score, -1; zero's
# is (0 - 2.5)/0.5 = -5.
ev-fuse --method weighted --norm zscore --floor text=zero hits.jsonl |
	jq -c 'select(.id == "c") | (.explain.lanes[] | select(.lane == "text") | .contribution)'
# rrf uses ranks: the floor changes nothing and is not listed.
ev-fuse --floor text=zero hits.jsonl | jq -c '[.id, .explain.floor]'
# The plan's fusion.floor sets it, and a flag overrides it.
printf 'fusion:\n  method: weighted\n  normalization: minmax\n  floor:\n    text: zero\n' >plan.yaml
ev-fuse --config plan.yaml hits.jsonl | jq -c '[.id, .score]'
ev-fuse --config plan.yaml --floor text=norm hits.jsonl | jq -c '[.id, .score]'
# Bad values are refused.
exec 2>&1
ev-fuse --floor text=low hits.jsonl; echo "exit $?"
ev-fuse --floor text hits.jsonl; echo "exit $?"
printf 'fusion:\n  floor:\n    text: 0\n' >bad.yaml
ev-fuse --config bad.yaml hits.jsonl; echo "exit $?"
