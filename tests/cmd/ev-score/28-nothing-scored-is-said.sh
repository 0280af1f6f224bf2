# An empty input (or one whose every record is skipped) passes every gate,
# as no item fails one: a CI job whose answers were lost upstream went green
# without a word.  Standard error now says that nothing was scored; the exit
# status stays 0, as no item failed.
: >empty.jsonl
ev-score --min-faithfulness 0.5 --min-overall 0.6 empty.jsonl
echo "exit $?"
echo '{"query":"x","answer":3}' >bad.jsonl
ev-score --min-overall 0.6 --skip-invalid bad.jsonl
echo "exit $?"
echo '{"query":"drag","answer":"Drag rises.","citations":["Drag rises with speed."]}' | ev-score --min-overall 0.6 >/dev/null
echo "exit $?"
