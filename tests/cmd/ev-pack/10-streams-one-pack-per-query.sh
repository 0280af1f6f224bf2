# One pack per query, written as soon as the next query begins.
L=$CASEDIR/../ev-fuse
mkfifo in
(
	grep q1 "$L/text.jsonl"; grep q2 "$L/text.jsonl" | head -1
	i=0
	while [ ! -s first ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
	if [ -s first ]; then echo streamed >verdict; else echo "not streamed" >verdict; fi
	grep q2 "$L/text.jsonl" | tail -1
) >in &
ev-pack in | { IFS= read -r line; printf "%s\n" "$line" >first; cat >rest; }
wait
cat verdict
cat first rest | jq -c "[.evidences[].id]"
