# One pack per query, written as soon as the next query begins.
. "$CASEDIR/../stream.sh"
mkfifo in
held_back "$CASEDIR/../ev-fuse/text.jsonl" >in &
ev-pack in | first_then_rest
wait
cat verdict
cat first rest | jq -c "[.evidences[].id]"
