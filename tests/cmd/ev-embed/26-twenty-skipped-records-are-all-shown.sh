# --skip-invalid names the first 20 bad records, then says once that the
# rest are not shown: with exactly 20 every one is shown, and nothing is said
# of others (the note came at the 20th, as if a 21st had been left out).
exec 2>&1
ev-ingest --db kb.db --quiet "$CASEDIR/docs.jsonl"
ev-embed --db kb.db --train --dim 4 > /dev/null
for n in 20 21; do
	i=0
	while [ $i -lt $n ]; do echo '{"text": 5}'; i=$((i + 1)); done > bad$n.jsonl
	ev-embed --db kb.db --skip-invalid bad$n.jsonl 2>err >/dev/null; echo "exit $?"
	tail -n 3 err
done
