# The EXAMPLES of man/evkit.7 that need no Cranfield collection (every
# command but those naming cran...) run as written from the top of a checkout
# and succeed, on a fresh clone too: a store and an index of samples/, both
# lanes, fusion, packs, and a question asked from the shell through jq.
ln -s "$SAMPLES" samples
. "$CASEDIR/../examples.sh"
examples evkit.7 | grep -v cran >examples.sh
sh -e examples.sh >log 2>err
echo "status $?, $(grep -c . examples.sh) command lines"
echo "$(wc -l <packs.jsonl) packs of $(grep -c . samples/queries.jsonl) queries;" \
	"$(jq -s 'map(.evidences | length) | add' packs.jsonl) evidences;" \
	"$(grep -c '«' log) snippets from jq"
