# Every key of a plan is an entry of one schema, which every stage knows:
# a misspelt key in another stage's section (routing, rerank, embed, the
# text lane's feedback given as a mapping) is said by every stage reading
# the plan, not only by the stage owning it; the keys as written pass
# quietly, the feedback as a number or as a mapping.
exec 2>&1
printf 'version: "0.1"\nrouting:\n  defualt: [text]\n  default: [text]\nrerank:\n  top_nn: 5\n  top_n: 5\nembed:\n  dimm: 3\n  dim: 3\nlanes:\n  text:\n    feedback:\n      termz: 40\n      terms: 40\n' >plan.yaml
echo '{"query_id":"q","query":"x"}' >q.jsonl
ev-route --config plan.yaml q.jsonl; echo "exit $?"
ev-pack --plan plan.yaml </dev/null; echo "exit $?"
ev-fuse --config plan.yaml </dev/null; echo "exit $?"
printf 'version: "0.1"\nrouting:\n  default: [text]\nrerank:\n  top_n: 5\n  weights:\n    bm25: 0.1\nembed:\n  dim: 3\nlanes:\n  text:\n    feedback:\n      docs: 2\n      terms: 40\n' >good.yaml
ev-route --config good.yaml q.jsonl; echo "exit $?"
ev-pack --plan good.yaml </dev/null; echo "exit $?"
printf 'lanes:\n  text:\n    feedback: 3\n' >number.yaml
ev-route --config number.yaml q.jsonl; echo "exit $?"
ev-pack --plan number.yaml </dev/null; echo "exit $?"
