# Every key of a plan is an entry of one schema, which every stage knows:
# a misspelt key in another stage's section (routing, rerank, embed) is
# said by every stage reading the plan, not only by the stage owning it;
# the keys as written pass quietly.
exec 2>&1
printf 'version: "0.1"\nrouting:\n  defualt: [text]\n  default: [text]\nrerank:\n  top_nn: 5\n  top_n: 5\nembed:\n  dimm: 3\n  dim: 3\n' >plan.yaml
echo '{"query_id":"q","query":"x"}' >q.jsonl
ev-route --config plan.yaml q.jsonl; echo "exit $?"
ev-pack --plan plan.yaml </dev/null; echo "exit $?"
ev-fuse --config plan.yaml </dev/null; echo "exit $?"
printf 'version: "0.1"\nrouting:\n  default: [text]\nrerank:\n  top_n: 5\n  weights:\n    bm25: 0.1\nembed:\n  dim: 3\n' >good.yaml
ev-route --config good.yaml q.jsonl; echo "exit $?"
ev-pack --plan good.yaml </dev/null; echo "exit $?"
