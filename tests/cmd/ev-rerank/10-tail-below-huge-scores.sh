# The hits past the top stay below every reranked one and keep falling, as
# written (ten significant digits), whatever the scale of the command's
# scores: with a score of 2e16, a step of 1 is lost in the double, and
# every hit came out at 2e16.  (The scores as ev-rerank writes them: the
# first "score" of each line, the hit's own.)
. "$CASEDIR/store.inc"
for i in 1 2 3 4; do
	echo "{\"query_id\":1,\"query\":\"varroa\",\"id\":\"h$i\",\"rank\":$i,\"score\":$((5 - i))}"
done >hits.jsonl
scores() { sed 's/^.*"id":"\([^"]*\)","rank":\([0-9]*\),"score":\([^,]*\),.*$/\1 \2 \3/'; }
ev-rerank --db kb.db --top-n 1 --command 'while read -r l; do echo 2e16; done' hits.jsonl | scores
echo "exit $?"
ev-rerank --db kb.db --top-n 2 --command 'while read -r l; do echo 3; done' hits.jsonl | scores
