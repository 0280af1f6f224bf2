# A plan whose path holds a space; its lanes.text.k and lanes.vector.k are
# the lanes' -k (--lane-k overrides both); the plan reaches every stage (the
# text lane's snippet marks come from it); its k is ev-pack's.
. "$CASEDIR/store.inc"
mkdir "my plans"
cat >"my plans/plan.yaml" <<'END'
lanes:
  text:
    k: 1
  vector:
    k: 2
text:
  snippet:
    open: "<<"
    close: ">>"
fusion:
  method: rrf
k: 3
END
"$hybrid" --db db --index idx --plan "my plans/plan.yaml" --keep lanes "swept wing flutter" >packs.jsonl
echo "status $?"
/usr/bin/python3 "$top/scripts/validate-evidencepack.py" <packs.jsonl
wc -l <lanes/text.jsonl
wc -l <lanes/vector.jsonl
jq -r .snippet lanes/text.jsonl
jq -c '[.query_id, .query, .explain.fusion.method, .stats.candidates, (.evidences | length), .warnings]' packs.jsonl
"$hybrid" --db db --index idx --plan "my plans/plan.yaml" --lane-k 4 --keep lanes2 -k 1 "swept wing flutter" |
	jq -c '[.stats.candidates, (.evidences | length)]'
wc -l <lanes2/text.jsonl
wc -l <lanes2/vector.jsonl
# a bad lane depth in the plan is refused before anything runs
printf 'lanes:\n  text:\n    k: 0\n' >"my plans/bad.yaml"
"$hybrid" --db db --plan "my plans/bad.yaml" "flutter" 2>&1
echo "status $?"
