# A plan need not have a lanes section: one with only fusion and a pack's k
# and min_score is a plan all the same (it has keys only a plan has), whose
# top-level k and min_score are ev-pack's.  The lanes took such a file for
# one of their own: ev-hybrid failed on k: 0 (all evidences: the lanes'
# -k is 1 to 100000), and ev-search-vec dropped the vectors scoring below
# the pack's min_score.  A file of a lane's own options keeps them.
. "$CASEDIR/store.inc"
printf 'k: 0\nfusion:\n  method: rrf\n' >plan.yaml
"$hybrid" --db db --index idx --plan plan.yaml "wing loads" >packs.jsonl
echo "exit $?: $(jq -c '[.plan.k, (.evidences | length)]' packs.jsonl)"
echo '"wing loads"' | ev-embed --db db --role query >q.jsonl
printf 'min_score: 0.5\nfusion:\n  method: rrf\n' >plan.yaml
ev-search-vec --db db --index idx --config plan.yaml q.jsonl | wc -l
printf 'k: 2\nmin_score: 0.5\n' >vec.yaml
ev-search-vec --db db --index idx --config vec.yaml q.jsonl | wc -l
