# Streaming: q1 is fused and written as soon as the first hit of q2 arrives,
# before the input ends.  The writer holds back q2's last hit until ev-fuse's
# first output line has come through the pipe (or gives up after 10 s).
mkfifo in
(
	grep q1 "$CASEDIR/text.jsonl"; grep q2 "$CASEDIR/text.jsonl" | head -1
	i=0
	while [ ! -s first ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
	if [ -s first ]; then echo streamed >verdict; else echo "not streamed" >verdict; fi
	grep q2 "$CASEDIR/text.jsonl" | tail -1
) >in &
ev-fuse --no-explain in | { IFS= read -r line; printf '%s\n' "$line" >first; cat >rest; }
wait
cat verdict
cat first rest | jq -c "[.query_id,.id]"
