# Sourced by golden cases that check a command streams (. "$CASEDIR/../stream.sh"):
# its output for one query comes before its input ends.

# held_back HITS >FIFO &: write the hits of q1 in the file HITS and the
# first of q2, then hold q2's last hit back until the command's first output
# line is in the file "first" (or 10 s have passed), saying "streamed" or
# "not streamed" in the file "verdict"; then write that last hit.
held_back() {
	grep q1 "$1"; grep q2 "$1" | head -1
	i=0
	while [ ! -s first ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
	if [ -s first ]; then echo streamed >verdict; else echo "not streamed" >verdict; fi
	grep q2 "$1" | tail -1
}

# first_then_rest: the first line of the standard input into the file
# "first" as soon as it comes, the rest into the file "rest".
first_then_rest() {
	IFS= read -r line
	printf '%s\n' "$line" >first
	cat >rest
}
