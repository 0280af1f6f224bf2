# A query of no word the embedding model knows is said once on stderr, by
# the vector lane (ev-embed says nothing of a query's all-zero vector, and
# the feedback lane does not say again what the vector lane said); the
# text lane answers, status 0.
. "$CASEDIR/store.inc"
cat >plan.yaml <<'END'
lanes:
  vector:
    feedback: 3
    feedback_weight: 1
k: 3
END
"$hybrid" --db db --index idx --plan plan.yaml "zeppelin" >packs.jsonl 2>err.txt
echo "status $?"
cat err.txt
"$hybrid" --db db --index idx --plan plan.yaml "zeppelin flutter" >packs.jsonl 2>err.txt
echo "status $?"
cat err.txt
jq -c '[.query, (.evidences | length)]' packs.jsonl
