# A message that quotes the input (an id, a value, the bytes near a JSON
# error) writes its control characters as JSON escapes: they went to the
# terminal as they were, an escape sequence colouring or clearing the screen
# and a new line in an id breaking the one-line "PROG: FILE:LINE: what".
printf '%s\n' '{"id":"a\u001b[2J\nb","text":"t"}' '{"id":"a\u001b[2J\nb","text":"t"}' > twice.jsonl
ev-ingest --db kb.db twice.jsonl 2>&1
echo "exit $?"
printf '%s\n' '{"id":"d","text":"t","published_date":"\u001b]0;x\u0007 2021"}' > date.jsonl
ev-ingest --db kb.db date.jsonl 2>&1
echo "exit $?"
printf '\033[31m\n' > raw.jsonl
ev-ingest --db kb.db raw.jsonl 2>&1
echo "exit $?"
ls
