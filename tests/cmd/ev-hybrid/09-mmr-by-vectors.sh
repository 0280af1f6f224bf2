# A plan asking for diversity (diversity.mmr_lambda) has ev-pack compare
# chunks by their stored vectors when the vector lane works, and by word
# overlap when there is no index or the index cannot be read.  The lanes
# say nothing of the plan's keys that are ev-pack's (group_by).
. "$CASEDIR/store.inc"
cat >plan.yaml <<'END'
fusion:
  method: rrf
diversity:
  mmr_lambda: 0.3
group_by: lane
k: 4
END
show() { jq -c '[[.evidences[].id], .explain.diversity.mmr.similarity]'; }
"$hybrid" --db db --index idx --plan plan.yaml "swept wing flutter" 2>err.txt | show
cat err.txt
"$hybrid" --db db --plan plan.yaml "swept wing flutter" | show
"$hybrid" --db db --index nosuch.idx --plan plan.yaml "swept wing flutter" 2>/dev/null | show
