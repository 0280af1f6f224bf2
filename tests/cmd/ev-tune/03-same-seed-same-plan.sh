# Without judgements ev-tune makes pseudo-queries from the store, and says so.
# The same seed gives the same plan, byte for byte; another seed other
# pseudo-queries and folds.  (The text lane alone, to keep the case short.)
. "$CASEDIR/mkstore"; mkstore
ev-tune --db kb.db --pseudo 20 --seed 7 >a.yaml 2>a.err
echo "status $?"
ev-tune --db kb.db --pseudo 20 --seed 7 >b.yaml 2>/dev/null
ev-tune --db kb.db --pseudo 20 --seed 8 >c.yaml 2>/dev/null
cmp -s a.yaml b.yaml && echo "seed 7 twice: the same plan"
cmp -s a.yaml c.yaml || echo "seed 8: another account"
grep -c 'pseudo-queries' a.yaml
sed -n 1p a.err
