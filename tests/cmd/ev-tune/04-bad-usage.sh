# Bad usage and bad input: a message naming what is wrong, exit 2, and the
# store untouched.
exec 2>&1
. "$CASEDIR/mkstore"; mkstore
before=$(sqlite3 kb.db .dump | cksum)
q=$SAMPLES/queries.jsonl
ev-tune --qrels "$CASEDIR/samples.qrels" "$q"; echo "status $?"
ev-tune --db kb.db "$q"; echo "status $?"
ev-tune --db kb.db --folds 1; echo "status $?"
ev-tune --db kb.db --metric bleu; echo "status $?"
ev-tune --db kb.db --metric map@5; echo "status $?"
printf 'nobody d1 1\n' >other.qrels
ev-tune --db kb.db --qrels other.qrels "$q"; echo "status $?"
printf 'q1 samples/api/orders-api.md 1\n' >one.qrels
ev-tune --db kb.db --qrels one.qrels "$q"; echo "status $?"
printf 'lanes:\n  text:\n    proximity: 11\n' >bad.yaml
ev-tune --db kb.db --plan bad.yaml; echo "status $?"
ev-tune --db kb.db --qrels missing.qrels "$q"; echo "status $?"
printf '{"query_id":"q1","query":"docker"}\n{"query_id":"q2","query":"x"\n' >trunc.jsonl
ev-tune --db kb.db --qrels "$CASEDIR/samples.qrels" trunc.jsonl; echo "status $?"
printf 'true\n' | ev-tune --db kb.db --qrels "$CASEDIR/samples.qrels"; echo "status $?"
# --qrels - reads standard input: the queries (or --rerank's hits) cannot
ev-tune --db kb.db --qrels - <"$CASEDIR/samples.qrels"; echo "status $?"
ev-tune --rerank --qrels - - <"$CASEDIR/samples.qrels"; echo "status $?"
[ "$(sqlite3 kb.db .dump | cksum)" = "$before" ] && echo "store unchanged"
