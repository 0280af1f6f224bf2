# Streaming: q1 is fused and written as soon as the first hit of q2 arrives,
# before the input ends.  The writer holds back q2's last hit until ev-fuse's
# first output line has come through the pipe (or gives up after 10 s).
. "$CASEDIR/../stream.sh"
mkfifo in
held_back "$CASEDIR/text.jsonl" >in &
ev-fuse --no-explain in | first_then_rest
wait
cat verdict
cat first rest | jq -c "[.query_id,.id]"
