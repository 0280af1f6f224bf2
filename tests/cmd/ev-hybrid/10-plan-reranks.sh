# A plan with a rerank section has ev-rerank rerank the fused hits between
# ev-fuse and ev-pack, with the plan's weights (here incoming -1 turns the
# best three round): --keep's fused.jsonl is the
# reranked ranking, each hit carrying the rerank object and explaining its
# score; without the section, nothing is reranked.
. "$CASEDIR/store.inc"
cat >plan.yaml <<'END'
fusion:
  method: rrf
rerank:
  top_n: 3
  weights:
    incoming: -1
    coverage: 0
k: 5
END
"$hybrid" --db db --index idx --plan plan.yaml --keep run "swept wing flutter" >packs.jsonl 2>err.txt
echo "status $?"
cat err.txt
jq -c '[.rank, .id, .rerank.model, .rerank.top_n, (.explain.rerank | has("features"))]' run/fused.jsonl
jq -s '[.[].score] | . == (sort | reverse)' run/fused.jsonl
jq -c '[.evidences | length]' packs.jsonl
sed '/^rerank:/,$d' plan.yaml >plain.yaml
echo 'k: 5' >>plain.yaml
"$hybrid" --db db --index idx --plan plain.yaml --keep run2 "swept wing flutter" >/dev/null
jq -c '[.rank, .id, .rerank]' run2/fused.jsonl
