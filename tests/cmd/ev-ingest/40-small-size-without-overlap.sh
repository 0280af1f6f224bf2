# A --size under 400 needs no --overlap: the default overlap, 200 bytes, is
# then half of --size.  (ev-ingest refused every such --size with
# "--overlap must be at most half of --size (32): '200'", naming an option
# that was not given.)  An --overlap given as a flag or in the config file
# is still held to half of --size.
exec 2>&1
awk 'BEGIN { for (s = 1; s <= 12; s++) printf "Sentence number %d of the paragraph. ", s; print "" }' >para.txt
ev-ingest --db a.db --size 64 para.txt >a.jsonl; echo "--size 64: exit $?"
ev-ingest --db b.db --size 64 --overlap 32 para.txt >b.jsonl; echo "--size 64 --overlap 32: exit $?"
cmp a.jsonl b.jsonl && echo "the same chunks ($(wc -l <a.jsonl)), each of 64 bytes or less:" &&
	jq -r '"\(.offset_start)-\(.offset_end) \(.text | length)"' a.jsonl | tr '\n' ' ' && echo
printf 'chunk:\n  size: 300\n' >size.yaml
ev-ingest --db c.db --config size.yaml --quiet para.txt; echo "chunk.size 300 in the config: exit $?"
ev-ingest --db d.db --size 64 --overlap 33 para.txt; echo "exit $?"
printf 'chunk:\n  overlap: 200\n' >overlap.yaml
ev-ingest --db d.db --config overlap.yaml --size 300 para.txt; echo "exit $?"
[ -e d.db ] || echo "no store made by the refused runs"
