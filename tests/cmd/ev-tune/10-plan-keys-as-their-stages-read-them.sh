# ev-tune reads the plan's lanes and fusion through the plan schema, as the
# stages owning the keys read them: the same bad value is refused by the
# stage and by ev-tune with the same message (exit 2), also for a key a
# trial does not hold (fusion.k); ev-pack and ev-tune check a lane's k
# alike; and a lane's weight given as a string, which ev-fuse takes, is no
# longer refused by ev-tune.
exec 2>&1
. "$CASEDIR/mkstore"; mkstore
for plan in 'fusion:\n  k: many\n' 'fusion:\n  method: median\n' 'fusion:\n  floor:\n    text: low\n' \
    'fusion:\n  weights:\n    text: -1\n'; do
	printf "$plan" >bad.yaml
	ev-fuse --config bad.yaml </dev/null; echo "ev-fuse: status $?"
	ev-tune --db kb.db --plan bad.yaml; echo "ev-tune: status $?"
done
printf 'lanes:\n  vector:\n    k: many\n' >bad.yaml
echo '{}' | ev-pack --plan bad.yaml; echo "ev-pack: status $?"
ev-tune --db kb.db --plan bad.yaml; echo "ev-tune: status $?"
printf 'version: "0.1"\nfusion:\n  method: weighted\n  weights:\n    text: "0.25"\n    vector: "0.75"\n' >ok.yaml
ev-tune --db kb.db --index kb.faiss --plan ok.yaml --qrels "$CASEDIR/samples.qrels" --folds 2 \
	"$SAMPLES/queries.jsonl" >tuned.yaml 2>err.txt; echo "ev-tune: status $?"
grep -c '^fusion:' tuned.yaml
# a key no stage reads is warned about, as every stage warns, also one in
# the mapping the text lane's feedback may be
printf 'lanes:\n  text:\n    feedbak: 3\n    feedback:\n      termz: 40\n' >typo.yaml
ev-tune --db kb.db --index kb.faiss --plan typo.yaml --qrels "$CASEDIR/samples.qrels" --folds 2 \
	"$SAMPLES/queries.jsonl" 2>&1 >/dev/null | grep unknown
