# Queries read as documents (whole documents of samples/ given as queries,
# more searched words than --long-query): the fusion gives the feedback
# lane no weight for them (ev-fuse(1)), and the figure ev-tune gives the
# defaults is still the pipeline's as scripts/ev-hybrid runs it (ev-fuse
# --db, the store's default weights).  ev-tune's text hits carry the signal
# query_as_document the fusion reads that from.
. "$CASEDIR/mkstore"; mkstore
n=0
for f in runbooks/incident-response.md notes/2026-03-payment-outage-postmortem.txt api/orders-api.md \
    handbook/security.md; do
	n=$((n + 1))
	jq -Rsc --arg id "long$n" '{query_id: $id, query: .}' "$SAMPLES/$f"
done >q.jsonl
cat >q.qrels <<'QRELS'
long1 samples/runbooks/incident-response.md 2
long1 samples/notes/oncall-tips.txt 1
long2 samples/notes/2026-03-payment-outage-postmortem.txt 2
long2 samples/runbooks/database-failover.md 1
long3 samples/api/orders-api.md 2
long3 samples/api/authentication.md 1
long4 samples/handbook/security.md 2
long4 samples/api/authentication.md 1
QRELS
ev-tune --db kb.db --index kb.faiss --qrels q.qrels --plan "$SAMPLES/plan.yaml" --folds 2 q.jsonl \
	-o tuned.yaml 2>err
echo "status $?"
tune=$(sed -n 's/.*against \([0-9.]*\) for the defaults.*/\1/p' err)
ev-search-text --db kb.db q.jsonl >text.jsonl
echo "text hits read as documents: $(grep -c '"query_as_document":true' text.jsonl) of $(wc -l <text.jsonl)"
ev-embed --db kb.db --role query q.jsonl >qv.jsonl
ev-search-vec --db kb.db --index kb.faiss <qv.jsonl >vector.jsonl
ev-search-vec --config "$SAMPLES/plan.yaml" --db kb.db --index kb.faiss \
	--feedback-hits text.jsonl <qv.jsonl >feedback.jsonl
ev-fuse --db kb.db --config "$SAMPLES/plan.yaml" text.jsonl vector.jsonl feedback.jsonl >fused.jsonl
pipe=$(ev-eval --qrels q.qrels fused.jsonl | sed 's/.*"ndcg@10":\([0-9.]*\).*/\1/')
[ -n "$tune" ] && [ "$tune" = "$pipe" ] && echo "the defaults' figure is the pipeline's" ||
	echo "ev-tune says '$tune' for the defaults, the pipeline gets '$pipe'"
