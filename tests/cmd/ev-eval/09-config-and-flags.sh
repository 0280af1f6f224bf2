# --config gives defaults, a flag overrides them; unknown keys are warned about.
cat >eval.yaml <<EOF
qrels: $CASEDIR/small.qrels
binary: true
k: 5
cutoff:
  recall: 3
min:
  map: 0.2
colour: blue
EOF
ev-eval --config eval.yaml --cutoff recall=4 "$CASEDIR/small.jsonl" 2>&1 | sed "s|$CASEDIR|CASEDIR|"
