# --skip-invalid: a bad query record is reported, skipped and counted; the
# others are tuned on.  Without it the same input is refused (04).
. "$CASEDIR/mkstore"; mkstore
{ head -n 3 "$SAMPLES/queries.jsonl"; echo '{"query_id":"bad"'; echo 'true'
  tail -n +4 "$SAMPLES/queries.jsonl"; } >queries.jsonl
ev-tune --db kb.db --qrels "$CASEDIR/samples.qrels" --skip-invalid --folds 2 queries.jsonl \
	>plan.yaml 2>err
echo "status $?"
grep -E 'queries\.jsonl|skipped' err
grep -o 'tuned on [0-9]* queries' plan.yaml
