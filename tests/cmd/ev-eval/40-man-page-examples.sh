# The EXAMPLES of man/ev-eval.1 and man/evkit.7 run as written (from the top of
# a checkout, with the Cranfield collection in cranfield/) and succeed (those
# of evkit.7 without Cranfield: evkit/02-man-page-examples).  What is shown here
# does not depend on how well the lanes rank: counts, the hand-checkable line,
# and that the converted and the raw Cranfield judgements agree.
. "$SKIPLIB"
need_file "$SHARED/data/cranfield" "the Cranfield collection"
ln -s "$SAMPLES" samples
. "$CASEDIR/../examples.sh"
for page in evkit.7 ev-eval.1; do
	mkdir "$page" && (cd "$page" && ln -s ../samples samples && ln -s "$SHARED/data/cranfield" cranfield && examples "$page" >examples.sh &&
	    sh -e examples.sh >log 2>err; echo "$page: status $?, $(grep -c . examples.sh) command lines")
done
echo "evkit.7: $(wc -l <evkit.7/packs.jsonl) packs; $(grep -c '«' evkit.7/log) snippets from jq;" \
	"the Cranfield summary: $(grep '^{"queries"' evkit.7/log | cut -d, -f1)"
grep '^{"queries"' ev-eval.1/log | sed -n 1,2p | uniq | wc -l | sed 's/^1$/ev-eval.1: converted and raw qrels agree/'
grep '^{"queries":1,' ev-eval.1/log
echo "ev-eval.1: $(wc -l <ev-eval.1/per-query.jsonl) lines with --per-query;" \
	"TREC lines of 6 fields with Q0: $(awk 'NF == 6 && $2 == "Q0"' ev-eval.1/text.trec | wc -l)" \
	"of $(wc -l <ev-eval.1/text.trec)" | sed 's/of \(.*\) of \1$/all/; s/: \([0-9]*\) of \1$/: all/'
