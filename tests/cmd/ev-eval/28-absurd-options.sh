# Usage errors exit 2: no --qrels, -k 0, a bad --cutoff, an unknown --min
# metric, a --min out of [0, 1], --level 0 without --binary, an unknown option;
# the config's cutoff and min keys are named by file, line and key, with
# their value (not as the flag's METRIC=N).
printf '%s\n' 'q1 d1 1' 'q1 d2 1' >qrels
{
ev-eval </dev/null; echo "status $?"
ev-eval --qrels qrels -k 0 </dev/null; echo "status $?"
ev-eval --qrels qrels -k 10x </dev/null; echo "status $?"
ev-eval --qrels qrels --cutoff map=3 </dev/null; echo "status $?"
ev-eval --qrels qrels --cutoff recall=0 </dev/null; echo "status $?"
ev-eval --qrels qrels --min ndcg@5=0.5 </dev/null; echo "status $?"
ev-eval --qrels qrels --min map=1.5 </dev/null; echo "status $?"
ev-eval --qrels qrels --min map=nan </dev/null; echo "status $?"
ev-eval --qrels qrels --level 0 </dev/null; echo "status $?"
ev-eval --qrels qrels --tag 'two words' </dev/null; echo "status $?"
ev-eval --qrels qrels --bogus </dev/null; echo "status $?"
printf 'cutoff:\n  ndcg: x\n' >cutoff.yaml
ev-eval --qrels qrels --config cutoff.yaml </dev/null; echo "status $?"
printf 'min:\n  map: 2\n' >min.yaml
ev-eval --qrels qrels --config min.yaml </dev/null; echo "status $?"
printf 'min:\n  bogus: 0.5\n' >metric.yaml
ev-eval --qrels qrels --config metric.yaml </dev/null; echo "status $?"
} 2>&1
