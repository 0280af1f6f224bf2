# Usage errors exit 2: gates out of [0, 1] or not numbers, a bad --weight,
# weights that are all 0, an unknown --redundancy or --summary, an unknown
# option, a bad config value.
{
ev-score --min-overall 2 </dev/null; echo "status $?"
ev-score --min-overall nan </dev/null; echo "status $?"
ev-score --min-coverage -0.1 </dev/null; echo "status $?"
ev-score --max-redundancy 0.5x </dev/null; echo "status $?"
ev-score --weight faithfulness </dev/null; echo "status $?"
ev-score --weight colour=1 </dev/null; echo "status $?"
ev-score --weight coverage=-1 </dev/null; echo "status $?"
ev-score --weight coverage=inf </dev/null; echo "status $?"
ev-score --weight faithfulness=0 --weight coverage=0 --weight redundancy=0 </dev/null; echo "status $?"
ev-score --redundancy median </dev/null; echo "status $?"
ev-score --summary=xml </dev/null; echo "status $?"
ev-score --bogus </dev/null; echo "status $?"
printf 'weights:\n  coverage: high\n' >bad.yaml
ev-score --config bad.yaml </dev/null; echo "status $?"
printf 'gates:\n  min_overall: 3\n' >bad.yaml
ev-score --config bad.yaml </dev/null; echo "status $?"
printf 'redundancy: median\n' >bad.yaml
ev-score --config bad.yaml </dev/null; echo "status $?"
ev-score --db missing.db </dev/null; echo "status $?"
ev-score missing.jsonl; echo "status $?"
} 2>&1
